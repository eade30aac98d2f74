;; Literal search with 128-bit SIMD over bytes in the caller's memory (lib/forensics/simd-find.ts).
;;
;; find(p, end, n, o1, o2) returns the address of the first occurrence of the needle starting in
;; [p, end - n] and wholly inside [p, end), or -1. The caller writes the needle's n bytes at
;; address 0 (letters lowered when the search ignores ASCII case) and a case mask per byte at 256
;; (0x20 for such a letter, else 0); o1 and o2 are the two needle positions compared by SIMD (the
;; rarest bytes, chosen by the caller). Every candidate start is then checked byte by byte.
;;
;; Compiled by `npm run wasm` (wabt 1.0.39) into simd-find-wasm.ts; lib/jsonl/wasm-kernels.test.ts
;; checks that the checked-in bytes are this text's. docs/wasm-kernels.md.
(module
  (type $t0 (func (param i32 i32 i32 i32 i32) (result i32)))
  (import "m" "mem" (memory $mem 1))
  (func $find (export "find") (type $t0) (param $p i32) (param $end i32) (param $n i32) (param $o1 i32) (param $o2 i32) (result i32)
    ;; $last: the last possible start; $mask: candidate starts (one bit each); $c: a candidate; $k: the byte
    ;; being checked; $v1/$v2: needle bytes o1 and o2 in every lane; $f1/$f2: their case masks.
    (local $last i32) (local $mask i32) (local $c i32) (local $k i32) (local $v1 v128) (local $v2 v128) (local $f1 v128) (local $f2 v128)
    ;; The last start, and the two compared needle bytes and masks splatted to 16 lanes.
    (local.set $last (i32.sub (local.get $end) (local.get $n)))
    (local.set $v1 (i8x16.splat (i32.load8_u (i32.add (i32.const 0 (; needle ;)) (local.get $o1)))))
    (local.set $v2 (i8x16.splat (i32.load8_u (i32.add (i32.const 0 (; needle ;)) (local.get $o2)))))
    (local.set $f1 (i8x16.splat (i32.load8_u (i32.add (i32.const 256 (; masks ;)) (local.get $o1)))))
    (local.set $f2 (i8x16.splat (i32.load8_u (i32.add (i32.const 256 (; masks ;)) (local.get $o2)))))
    ;; 32 starts per step (two 16-lane masks in one i32) while p + 31 <= last: a start s is a
    ;; candidate when memory[s + o1] | mask1 == needle[o1] and the same at o2.
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
          ;; Check each candidate in $mask, lowest first, clearing it after.
          (then
            (block $hits
              (loop $hit
                (local.set $c (i32.add (local.get $p) (i32.ctz (local.get $mask))))
                (local.set $k (i32.const 0))
                ;; Returns $c when every byte at $c, OR its case mask, equals the needle's.
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
        ;; No hit among these 32 starts: the next 32.
        (local.set $p (i32.add (local.get $p) (i32.const 32)))
        (br $step32)))
    ;; Then 16 starts per step while every load stays before end: p + 15 <= last.
    ;; The last starts (fewer than 16) one by one.
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
          ;; Check each candidate in $mask, lowest first, clearing it after.
          (then
            (block $hits
              (loop $hit
                (local.set $c (i32.add (local.get $p) (i32.ctz (local.get $mask))))
                (local.set $k (i32.const 0))
                ;; Returns $c when every byte at $c, OR its case mask, equals the needle's.
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
        ;; Returns $c when every byte at $c, OR its case mask, equals the needle's.
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
    ;; No occurrence.
    (i32.const -1)))
