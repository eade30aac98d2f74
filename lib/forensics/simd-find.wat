(module
  (type $t0 (func (param i32 i32 i32 i32 i32) (result i32)))
  (import "m" "mem" (memory $mem 1))
  (func $find (export "find") (type $t0) (param $p i32) (param $end i32) (param $n i32) (param $o1 i32) (param $o2 i32) (result i32)
    (local $last i32) (local $mask i32) (local $c i32) (local $k i32) (local $v1 v128) (local $v2 v128) (local $f1 v128) (local $f2 v128)
    (local.set $last (i32.sub (local.get $end) (local.get $n)))
    (local.set $v1 (i8x16.splat (i32.load8_u (i32.add (i32.const 0 (; needle ;)) (local.get $o1)))))
    (local.set $v2 (i8x16.splat (i32.load8_u (i32.add (i32.const 0 (; needle ;)) (local.get $o2)))))
    (local.set $f1 (i8x16.splat (i32.load8_u (i32.add (i32.const 256 (; masks ;)) (local.get $o1)))))
    (local.set $f2 (i8x16.splat (i32.load8_u (i32.add (i32.const 256 (; masks ;)) (local.get $o2)))))
    (block $by32
      (loop $step32
        (br_if $by32 (i32.gt_s (i32.add (local.get $p) (i32.const 31)) (local.get $last)))
        (if
          (local.tee $mask
            (i32.or
              (i8x16.bitmask
                (v128.and
                  (i8x16.eq
                    (v128.or
                      (v128.load align=1 (i32.add (local.get $p) (local.get $o1)))
                      (local.get $f1))
                    (local.get $v1))
                  (i8x16.eq
                    (v128.or
                      (v128.load align=1 (i32.add (local.get $p) (local.get $o2)))
                      (local.get $f2))
                    (local.get $v2))))
              (i32.shl
                (i8x16.bitmask
                  (v128.and
                    (i8x16.eq
                      (v128.or
                        (v128.load offset=16 align=1 (i32.add (local.get $p) (local.get $o1)))
                        (local.get $f1))
                      (local.get $v1))
                    (i8x16.eq
                      (v128.or
                        (v128.load offset=16 align=1 (i32.add (local.get $p) (local.get $o2)))
                        (local.get $f2))
                      (local.get $v2))))
                (i32.const 16))))
          (then
            (block $hits
              (loop $hit
                (local.set $c (i32.add (local.get $p) (i32.ctz (local.get $mask))))
                (local.set $k (i32.const 0))
                (block $mismatch
                  (loop $byte
                    (if (i32.eq (local.get $k) (local.get $n)) (then (return (local.get $c))))
                    (br_if $mismatch
                      (i32.ne
                        (i32.or
                          (i32.load8_u (i32.add (local.get $c) (local.get $k)))
                          (i32.load8_u (i32.add (i32.const 256 (; masks ;)) (local.get $k))))
                        (i32.load8_u (local.get $k))))
                    (local.set $k (i32.add (local.get $k) (i32.const 1)))
                    (br $byte)))
                (br_if $hit
                  (local.tee $mask
                    (i32.and (local.get $mask) (i32.sub (local.get $mask) (i32.const 1)))))))))
        (local.set $p (i32.add (local.get $p) (i32.const 32)))
        (br $step32)))
    (block $by16
      (loop $step16
        (br_if $by16 (i32.gt_s (i32.add (local.get $p) (i32.const 15)) (local.get $last)))
        (if
          (local.tee $mask
            (i8x16.bitmask
              (v128.and
                (i8x16.eq
                  (v128.or
                    (v128.load align=1 (i32.add (local.get $p) (local.get $o1)))
                    (local.get $f1))
                  (local.get $v1))
                (i8x16.eq
                  (v128.or
                    (v128.load align=1 (i32.add (local.get $p) (local.get $o2)))
                    (local.get $f2))
                  (local.get $v2)))))
          (then
            (block $hits
              (loop $hit
                (local.set $c (i32.add (local.get $p) (i32.ctz (local.get $mask))))
                (local.set $k (i32.const 0))
                (block $mismatch
                  (loop $byte
                    (if (i32.eq (local.get $k) (local.get $n)) (then (return (local.get $c))))
                    (br_if $mismatch
                      (i32.ne
                        (i32.or
                          (i32.load8_u (i32.add (local.get $c) (local.get $k)))
                          (i32.load8_u (i32.add (i32.const 256 (; masks ;)) (local.get $k))))
                        (i32.load8_u (local.get $k))))
                    (local.set $k (i32.add (local.get $k) (i32.const 1)))
                    (br $byte)))
                (br_if $hit
                  (local.tee $mask
                    (i32.and (local.get $mask) (i32.sub (local.get $mask) (i32.const 1)))))))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $step16)))
    (block $by1
      (loop $step1
        (br_if $by1 (i32.gt_s (local.get $p) (local.get $last)))
        (local.set $c (local.get $p))
        (local.set $k (i32.const 0))
        (block $mismatch
          (loop $byte
            (if (i32.eq (local.get $k) (local.get $n)) (then (return (local.get $c))))
            (br_if $mismatch
              (i32.ne
                (i32.or
                  (i32.load8_u (i32.add (local.get $c) (local.get $k)))
                  (i32.load8_u (i32.add (i32.const 256 (; masks ;)) (local.get $k))))
                (i32.load8_u (local.get $k))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $byte)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $step1)))
    (i32.const -1)))
