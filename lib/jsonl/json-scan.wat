;; JSON text checked and walked with 128-bit SIMD, in the caller's memory (lib/jsonl/json-scan.ts).
;;
;; Exports: str (the end of a string, its content validated), skip (the end of any JSON value, its
;; whole grammar checked), member (an object's members walked up to a wanted key length), walk
;; (an object walked by a compiled plan, writing the skim's tape). Every function returns an
;; address past what it read, or a negative code: -1 not valid JSON before `end`, -3 a key holding
;; an escape, -4 the tape is full. The JavaScript side (json-scan.ts) documents each in full.
;;
;; Memory (addresses the TypeScript side shares; wasm-kernels.test.ts checks them):
;;   [0, 4096)        stack of open containers, one byte each (1 object, 0 array)
;;   4096, 4100, 4104 member state: stopped at a member (1) or past the `}` (0), key's quotes
;;   4108             tape cursor (a byte address in the tape)
;;   [4160, 4416)     escape table (the data segment at the end)
;;   [4416, 8512)     compiled object plans, installed by the caller
;;   [8512, 20800)    the tape: 1024 entries of three words
;;   20800...         the text
;;
;; Compiled by `npm run wasm` (wabt 1.0.39) into json-scan-wasm.ts; lib/jsonl/wasm-kernels.test.ts
;; checks that the checked-in bytes are this text's. docs/wasm-kernels.md.
(module
  (type $t0 (func (param i32 i32) (result i32)))
  (type $t1 (func (param i32) (result i32)))
  (type $t2 (func (param i32 i32 i32 i32) (result i32)))
  (type $t3 (func (param i32 i32 i32) (result i32)))
  (import "m" "mem" (memory $mem 1))
  ;; at(p, end): the byte at p, or -1 at or past end.
  (func $at (type $t0) (param $p i32) (param $end i32) (result i32)
    (if (result i32)
      (i32.lt_u (local.get $p) (local.get $end))
      (then (i32.load8_u (local.get $p)))
      (else (i32.const -1))))
  ;; ws(p, end): the first index >= p that is not JSON whitespace (space, \n, \r, \t), or end.
  (func $ws (type $t0) (param $p i32) (param $end i32) (result i32)
    (local $c i32)
    (block $out
      (loop $next
        (br_if $out (i32.ge_u (local.get $p) (local.get $end)))
        (br_if $out
          (i32.eqz
            (i32.or
              (i32.or
                (i32.or
                  (i32.eq (local.tee $c (i32.load8_u (local.get $p))) (i32.const 32))
                  (i32.eq (local.get $c) (i32.const 10)))
                (i32.eq (local.get $c) (i32.const 13)))
              (i32.eq (local.get $c) (i32.const 9)))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $next)))
    (local.get $p))
  ;; hex(c): 1 when c is an ASCII hex digit.
  (func $hex (type $t1) (param $c i32) (result i32)
    (i32.or
      (i32.lt_u (i32.sub (local.get $c) (i32.const 48 (; '0' ;))) (i32.const 10))
      (i32.lt_u (i32.sub (i32.or (local.get $c) (i32.const 32)) (i32.const 97 (; 'a' ;))) (i32.const 6))))
  ;; str(p, end): p is at an opening quote; the index past the closing quote, or -1 when the string
  ;; does not close before end or holds a raw control byte or an invalid escape (RFC 8259 section 7).
  (func $str (export "str") (type $t0) (param $p i32) (param $end i32) (result i32)
    (local $stops i32) (local $c i32) (local $escaped i32) (local $i i32) (local $quote v128) (local $backslash v128) (local $space v128) (local $bytes v128)
    ;; The three stop bytes in every lane: quote, backslash, and 0x20 (bytes below it are control bytes).
    (local.set $quote (i8x16.splat (i32.const 34 (; '"' ;))))
    (local.set $backslash (i8x16.splat (i32.const 92 (; '\\' ;))))
    (local.set $space (i8x16.splat (i32.const 32)))
    (local.set $p (i32.add (local.get $p) (i32.const 1)))
    ;; From p: run to the next stop, handle it, go on.
    (loop $next
      (block $stop
        ;; Two vectors (32 bytes) a step while they fit: long runs of plain text (tool output, files).
        (block $single
          (loop $pair
            (br_if $single (i32.gt_u (i32.add (local.get $p) (i32.const 32)) (local.get $end)))
            ;; One bit per stop byte among the 32.
            (local.set $stops
              (i32.or
                (i8x16.bitmask
                  (v128.or
                    (v128.or
                      (i8x16.eq
                        (local.tee $bytes (v128.load align=1 (local.get $p)))
                        (local.get $quote))
                      (i8x16.eq (local.get $bytes) (local.get $backslash)))
                    (i8x16.lt_u (local.get $bytes) (local.get $space))))
                (i32.shl
                  (i8x16.bitmask
                    (v128.or
                      (v128.or
                        (i8x16.eq
                          (local.tee $bytes (v128.load offset=16 align=1 (local.get $p)))
                          (local.get $quote))
                        (i8x16.eq (local.get $bytes) (local.get $backslash)))
                      (i8x16.lt_u (local.get $bytes) (local.get $space))))
                  (i32.const 16))))
            ;; The stops of these 32 bytes in order, without reloading them: a quote ends the string, a
            ;; simple escape is stepped over (its bit and the escaped byte's cleared), anything else (a
            ;; control byte, \u, an escape reaching past the 32 bytes) goes to the one-byte step below.
            (loop $bits
              (if
                (i32.eqz (local.get $stops))
                (then
                  (local.set $p (i32.add (local.get $p) (i32.const 32)))
                  (br $pair)))
              (local.set $i (i32.ctz (local.get $stops)))
              (if
                (i32.eq
                  (local.tee $c (i32.load8_u (i32.add (local.get $p) (local.get $i))))
                  (i32.const 34 (; '"' ;)))
                (then (return (i32.add (i32.add (local.get $p) (local.get $i)) (i32.const 1)))))
              (if
                (i32.or
                  (i32.ne (local.get $c) (i32.const 92 (; '\\' ;)))
                  (i32.eq (local.get $i) (i32.const 31)))
                (then
                  (local.set $p (i32.add (local.get $p) (local.get $i)))
                  (br $stop)))
              (if
                (i32.eqz
                  (i32.load8_u offset=4160 (; escape table ;)
                    (i32.load8_u offset=1 (i32.add (local.get $p) (local.get $i)))))
                (then
                  (local.set $p (i32.add (local.get $p) (local.get $i)))
                  (br $stop)))
              (local.set $stops
                (i32.and
                  (local.get $stops)
                  (i32.xor (i32.shl (i32.const 3) (local.get $i)) (i32.const -1))))
              (br $bits))))
        ;; Then one vector (16 bytes) a step while it fits, up to the first stop.
        (loop $simd
          (br_if $stop (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
          (if
            (local.tee $stops
              (i8x16.bitmask
                (v128.or
                  (v128.or
                    (i8x16.eq
                      (local.tee $bytes (v128.load align=1 (local.get $p)))
                      (local.get $quote))
                    (i8x16.eq (local.get $bytes) (local.get $backslash)))
                  (i8x16.lt_u (local.get $bytes) (local.get $space)))))
            (then
              (local.set $p (i32.add (local.get $p) (i32.ctz (local.get $stops))))
              (br $stop)))
          (local.set $p (i32.add (local.get $p) (i32.const 16)))
          (br $simd)))
      ;; One byte: a stop found above, or the tail of fewer than 16 bytes. Past end: not closed.
      (if (i32.ge_u (local.get $p) (local.get $end)) (then (return (i32.const -1))))
      (if
        (i32.eq (local.tee $c (i32.load8_u (local.get $p))) (i32.const 34 (; '"' ;)))
        (then (return (i32.add (local.get $p) (i32.const 1)))))
      ;; A backslash: a one-byte escape from the table, or \u and four hex digits.
      (if
        (i32.eq (local.get $c) (i32.const 92 (; '\\' ;)))
        (then
          (if
            (i32.lt_s
              (local.tee $escaped
                (call $at (i32.add (local.get $p) (i32.const 1)) (local.get $end)))
              (i32.const 0))
            (then (return (i32.const -1))))
          (if
            (i32.load8_u offset=4160 (; escape table ;) (local.get $escaped))
            (then
              (local.set $p (i32.add (local.get $p) (i32.const 2)))
              (br $next)))
          (if (i32.ne (local.get $escaped) (i32.const 117 (; 'u' ;))) (then (return (i32.const -1))))
          (if
            (i32.gt_u (i32.add (local.get $p) (i32.const 6)) (local.get $end))
            (then (return (i32.const -1))))
          (if
            (i32.eqz (call $hex (i32.load8_u (i32.add (local.get $p) (i32.const 2)))))
            (then (return (i32.const -1))))
          (if
            (i32.eqz (call $hex (i32.load8_u (i32.add (local.get $p) (i32.const 3)))))
            (then (return (i32.const -1))))
          (if
            (i32.eqz (call $hex (i32.load8_u (i32.add (local.get $p) (i32.const 4)))))
            (then (return (i32.const -1))))
          (if
            (i32.eqz (call $hex (i32.load8_u (i32.add (local.get $p) (i32.const 5)))))
            (then (return (i32.const -1))))
          (local.set $p (i32.add (local.get $p) (i32.const 6)))
          (br $next)))
      ;; A raw control byte is invalid; any other byte is content.
      (if (i32.lt_u (local.get $c) (i32.const 32)) (then (return (i32.const -1))))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br $next))
    (i32.const -1))
  ;; num(p, end): a JSON number at p (-? int frac? exp?); the index past it, or -1.
  (func $num (type $t0) (param $p i32) (param $end i32) (result i32)
    (local $c i32)
    (if
      (i32.eq (local.tee $c (call $at (local.get $p) (local.get $end))) (i32.const 45 (; '-' ;)))
      (then
        (local.set $c
          (call $at (local.tee $p (i32.add (local.get $p) (i32.const 1))) (local.get $end)))))
    ;; The integer part: 0, or a digit 1-9 then any digits.
    (if
      (i32.eq (local.get $c) (i32.const 48 (; '0' ;)))
      (then
        (local.set $c
          (call $at (local.tee $p (i32.add (local.get $p) (i32.const 1))) (local.get $end))))
      (else
        (if
          (i32.eqz (i32.lt_u (i32.sub (local.get $c) (i32.const 49 (; '1' ;))) (i32.const 9)))
          (then (return (i32.const -1))))
        (block $int
          (loop $int_digit
            (br_if $int (i32.eqz (i32.lt_u (i32.sub (local.get $c) (i32.const 48 (; '0' ;))) (i32.const 10))))
            (local.set $c
              (call $at (local.tee $p (i32.add (local.get $p) (i32.const 1))) (local.get $end)))
            (br $int_digit)))))
    ;; A fraction: . and at least one digit.
    (if
      (i32.eq (local.get $c) (i32.const 46 (; '.' ;)))
      (then
        (local.set $c
          (call $at (local.tee $p (i32.add (local.get $p) (i32.const 1))) (local.get $end)))
        (if
          (i32.eqz (i32.lt_u (i32.sub (local.get $c) (i32.const 48 (; '0' ;))) (i32.const 10)))
          (then (return (i32.const -1))))
        (block $frac
          (loop $frac_digit
            (br_if $frac
              (i32.eqz (i32.lt_u (i32.sub (local.get $c) (i32.const 48 (; '0' ;))) (i32.const 10))))
            (local.set $c
              (call $at (local.tee $p (i32.add (local.get $p) (i32.const 1))) (local.get $end)))
            (br $frac_digit)))))
    ;; An exponent: e or E, a sign or none, at least one digit.
    (if
      (i32.eq (i32.or (local.get $c) (i32.const 32)) (i32.const 101 (; 'e' ;)))
      (then
        (local.set $c
          (call $at (local.tee $p (i32.add (local.get $p) (i32.const 1))) (local.get $end)))
        (if
          (i32.or (i32.eq (local.get $c) (i32.const 43 (; '+' ;))) (i32.eq (local.get $c) (i32.const 45 (; '-' ;))))
          (then
            (local.set $c
              (call $at (local.tee $p (i32.add (local.get $p) (i32.const 1))) (local.get $end)))))
        (if
          (i32.eqz (i32.lt_u (i32.sub (local.get $c) (i32.const 48 (; '0' ;))) (i32.const 10)))
          (then (return (i32.const -1))))
        (block $exp
          (loop $exp_digit
            (br_if $exp (i32.eqz (i32.lt_u (i32.sub (local.get $c) (i32.const 48 (; '0' ;))) (i32.const 10))))
            (local.set $c
              (call $at (local.tee $p (i32.add (local.get $p) (i32.const 1))) (local.get $end)))
            (br $exp_digit)))))
    (local.get $p))
  ;; key(p, end): at p (after whitespace) a string and then ':'; the index past the colon, or -1.
  ;; Each 'skip whitespace and read c' below has the common case inline: a byte that is not
  ;; whitespace (compact JSON) costs one compare, not two calls.
  (func $key (type $t0) (param $p i32) (param $end i32) (result i32)
    (local $c i32)
    (if
      (i32.lt_u (local.get $p) (local.get $end))
      (then
        (if
          (i32.lt_u (local.tee $c (i32.load8_u (local.get $p))) (i32.const 33))
          (then
            (local.set $c
              (call $at
                (local.tee $p (call $ws (local.get $p) (local.get $end)))
                (local.get $end))))))
      (else (local.set $c (i32.const -1))))
    (if (i32.ne (local.get $c) (i32.const 34 (; '"' ;))) (then (return (i32.const -1))))
    (if
      (i32.lt_s (local.tee $p (call $str (local.get $p) (local.get $end))) (i32.const 0))
      (then (return (i32.const -1))))
    (if
      (i32.lt_u (local.get $p) (local.get $end))
      (then
        (if
          (i32.lt_u (local.tee $c (i32.load8_u (local.get $p))) (i32.const 33))
          (then
            (local.set $c
              (call $at
                (local.tee $p (call $ws (local.get $p) (local.get $end)))
                (local.get $end))))))
      (else (local.set $c (i32.const -1))))
    (if (i32.ne (local.get $c) (i32.const 58 (; ':' ;))) (then (return (i32.const -1))))
    (i32.add (local.get $p) (i32.const 1)))
  ;; skip(p, end): a JSON value at p (whitespace before it skipped); the index past it, or -1.
  ;; Nested containers are followed on the stack at address 0 ($depth bytes), not by recursion.
  (func $skip (export "skip") (type $t0) (param $p i32) (param $end i32) (result i32)
    (local $c i32) (local $depth i32) (local $is_object i32) (local $d i32)
    (local.set $depth (i32.const 0))
    ;; A value starts at p (after whitespace).
    (loop $value
      (if
        (i32.lt_u (local.get $p) (local.get $end))
        (then
          (if
            (i32.lt_u (local.tee $c (i32.load8_u (local.get $p))) (i32.const 33))
            (then
              (local.set $c
                (call $at
                  (local.tee $p (call $ws (local.get $p) (local.get $end)))
                  (local.get $end))))))
        (else (local.set $c (i32.const -1))))
      (block $scalar
        ;; A string.
        (if
          (i32.eq (local.get $c) (i32.const 34 (; '"' ;)))
          (then
            (local.set $p (call $str (local.get $p) (local.get $end)))
            (br $scalar)))
        ;; A container: empty ('{' + 2 is '}', '[' + 2 is ']'), or pushed with the value loop going on
        ;; inside it (an object's first key read first).
        (if
          (i32.or (i32.eq (local.get $c) (i32.const 123 (; '{' ;))) (i32.eq (local.get $c) (i32.const 91 (; '[' ;))))
          (then
            (local.set $is_object (i32.eq (local.get $c) (i32.const 123 (; '{' ;))))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (if
              (i32.lt_u (local.get $p) (local.get $end))
              (then
                (if
                  (i32.lt_u (local.tee $d (i32.load8_u (local.get $p))) (i32.const 33))
                  (then
                    (local.set $d
                      (call $at
                        (local.tee $p (call $ws (local.get $p) (local.get $end)))
                        (local.get $end))))))
              (else (local.set $d (i32.const -1))))
            (if
              (i32.eq (local.get $d) (i32.add (local.get $c) (i32.const 2)))
              (then
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (br $scalar)))
            (if (i32.ge_u (local.get $depth) (i32.const 4096 (; MAX_DEPTH ;))) (then (return (i32.const -1))))
            (i32.store8 (local.get $depth) (local.get $is_object))
            (local.set $depth (i32.add (local.get $depth) (i32.const 1)))
            (if
              (local.get $is_object)
              (then (local.set $p (call $key (local.get $p) (local.get $end)))))
            (if (i32.lt_s (local.get $p) (i32.const 0)) (then (return (i32.const -1))))
            (br $value)))
        ;; true, null, false: their bytes compared as one little-endian word.
        (if
          (i32.eq (local.get $c) (i32.const 116 (; 't' ;)))
          (then
            (if
              (i32.gt_u (i32.add (local.get $p) (i32.const 4)) (local.get $end))
              (then (return (i32.const -1))))
            (if
              (i32.ne (i32.load align=1 (local.get $p)) (i32.const 1702195828 (; "true" ;)))
              (then (return (i32.const -1))))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (br $scalar)))
        (if
          (i32.eq (local.get $c) (i32.const 110 (; 'n' ;)))
          (then
            (if
              (i32.gt_u (i32.add (local.get $p) (i32.const 4)) (local.get $end))
              (then (return (i32.const -1))))
            (if
              (i32.ne (i32.load align=1 (local.get $p)) (i32.const 1819047278 (; "null" ;)))
              (then (return (i32.const -1))))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (br $scalar)))
        (if
          (i32.eq (local.get $c) (i32.const 102 (; 'f' ;)))
          (then
            (if
              (i32.gt_u (i32.add (local.get $p) (i32.const 5)) (local.get $end))
              (then (return (i32.const -1))))
            (if
              (i32.ne
                (i32.load align=1 (i32.add (local.get $p) (i32.const 1)))
                (i32.const 1702063201 (; "alse" ;)))
              (then (return (i32.const -1))))
            (local.set $p (i32.add (local.get $p) (i32.const 5)))
            (br $scalar)))
        ;; Anything else must be a number.
        (local.set $p (call $num (local.get $p) (local.get $end))))
      (if (i32.lt_s (local.get $p) (i32.const 0)) (then (return (i32.const -1))))
      ;; After a value: the value is done when no container is open; else a ',' and the next value
      ;; (its key first in an object), or the closer of the innermost container, popped.
      (loop $after
        (if (i32.eqz (local.get $depth)) (then (return (local.get $p))))
        (if
          (i32.lt_u (local.get $p) (local.get $end))
          (then
            (if
              (i32.lt_u (local.tee $c (i32.load8_u (local.get $p))) (i32.const 33))
              (then
                (local.set $c
                  (call $at
                    (local.tee $p (call $ws (local.get $p) (local.get $end)))
                    (local.get $end))))))
          (else (local.set $c (i32.const -1))))
        (local.set $is_object (i32.load8_u (i32.sub (local.get $depth) (i32.const 1))))
        (if
          (i32.eq (local.get $c) (i32.const 44 (; ',' ;)))
          (then
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (if
              (local.get $is_object)
              (then (local.set $p (call $key (local.get $p) (local.get $end)))))
            (if (i32.lt_s (local.get $p) (i32.const 0)) (then (return (i32.const -1))))
            (br $value)))
        (if
          (i32.ne
            (local.get $c)
            (i32.add
              (i32.add (i32.const 91 (; '[' ;)) (i32.mul (local.get $is_object) (i32.const 32)))
              (i32.const 2)))
          (then (return (i32.const -1))))
        (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $after)))
    (i32.const -1))
  ;; member(p, end, wanted, first): walks an object's members up to the next one whose key's byte
  ;; length n (< 32) has bit n set in `wanted`, checking every value stepped over. first = 1 with p
  ;; on the '{', 0 with p past the previous member's value. Returns the stopped-at member's value
  ;; index (member state: 1 and the key's quotes) or the index past the '}' (member state 0); -1 not
  ;; valid, -3 a key holding an escape (it could spell any name: the caller decides otherwise).
  (func $member (export "member") (type $t2) (param $p i32) (param $end i32) (param $wanted i32) (param $first i32) (result i32)
    (local $c i32) (local $key_open i32) (local $key_close i32) (local $value i32) (local $j i32)
    ;; To the first key: past '{' (an empty object ends here), or past the ',' after the previous value.
    (if
      (local.get $first)
      (then
        (if
          (i32.ne (call $at (local.get $p) (local.get $end)) (i32.const 123 (; '{' ;)))
          (then (return (i32.const -1))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (if
          (i32.lt_u (local.get $p) (local.get $end))
          (then
            (if
              (i32.lt_u (local.tee $c (i32.load8_u (local.get $p))) (i32.const 33))
              (then
                (local.set $c
                  (call $at
                    (local.tee $p (call $ws (local.get $p) (local.get $end)))
                    (local.get $end))))))
          (else (local.set $c (i32.const -1))))
        (if
          (i32.eq (local.get $c) (i32.const 125 (; '}' ;)))
          (then
            (i32.store (i32.const 4096 (; member state ;)) (i32.const 0))
            (return (i32.add (local.get $p) (i32.const 1))))))
      (else
        (if
          (i32.lt_u (local.get $p) (local.get $end))
          (then
            (if
              (i32.lt_u (local.tee $c (i32.load8_u (local.get $p))) (i32.const 33))
              (then
                (local.set $c
                  (call $at
                    (local.tee $p (call $ws (local.get $p) (local.get $end)))
                    (local.get $end))))))
          (else (local.set $c (i32.const -1))))
        (if
          (i32.eq (local.get $c) (i32.const 125 (; '}' ;)))
          (then
            (i32.store (i32.const 4096 (; member state ;)) (i32.const 0))
            (return (i32.add (local.get $p) (i32.const 1)))))
        (if (i32.ne (local.get $c) (i32.const 44 (; ',' ;))) (then (return (i32.const -1))))
        (local.set $p (call $ws (i32.add (local.get $p) (i32.const 1)) (local.get $end)))))
    ;; A member: its key (a string whose raw bytes hold no backslash), then ':'.
    (loop $member
      (if
        (i32.ne (call $at (local.get $p) (local.get $end)) (i32.const 34 (; '"' ;)))
        (then (return (i32.const -1))))
      (local.set $key_open (local.get $p))
      (if
        (i32.lt_s (local.tee $p (call $str (local.get $p) (local.get $end))) (i32.const 0))
        (then (return (i32.const -1))))
      (local.set $key_close (i32.sub (local.get $p) (i32.const 1)))
      (local.set $j (i32.add (local.get $key_open) (i32.const 1)))
      (block $plain
        (loop $scan
          (br_if $plain (i32.ge_u (local.get $j) (local.get $key_close)))
          (if (i32.eq (i32.load8_u (local.get $j)) (i32.const 92 (; '\\' ;))) (then (return (i32.const -3))))
          (local.set $j (i32.add (local.get $j) (i32.const 1)))
          (br $scan)))
      (if
        (i32.lt_u (local.get $p) (local.get $end))
        (then
          (if
            (i32.lt_u (local.tee $c (i32.load8_u (local.get $p))) (i32.const 33))
            (then
              (local.set $c
                (call $at
                  (local.tee $p (call $ws (local.get $p) (local.get $end)))
                  (local.get $end))))))
        (else (local.set $c (i32.const -1))))
      (if (i32.ne (local.get $c) (i32.const 58 (; ':' ;))) (then (return (i32.const -1))))
      (local.set $value (call $ws (i32.add (local.get $p) (i32.const 1)) (local.get $end)))
      ;; A wanted key length: report the member and stop at its value.
      (if
        (i32.lt_u
          (local.tee $j
            (i32.sub (i32.sub (local.get $key_close) (local.get $key_open)) (i32.const 1)))
          (i32.const 32))
        (then
          (if
            (i32.and (i32.shr_u (local.get $wanted) (local.get $j)) (i32.const 1))
            (then
              (i32.store (i32.const 4096 (; member state ;)) (i32.const 1))
              (i32.store offset=4 (i32.const 4096 (; member state ;)) (local.get $key_open))
              (i32.store offset=8 (i32.const 4096 (; member state ;)) (local.get $key_close))
              (return (local.get $value))))))
      ;; Any other: its value checked and stepped over, then ',' and the next member, or '}'.
      (if
        (i32.lt_s (local.tee $p (call $skip (local.get $value) (local.get $end))) (i32.const 0))
        (then (return (i32.const -1))))
      (if
        (i32.lt_u (local.get $p) (local.get $end))
        (then
          (if
            (i32.lt_u (local.tee $c (i32.load8_u (local.get $p))) (i32.const 33))
            (then
              (local.set $c
                (call $at
                  (local.tee $p (call $ws (local.get $p) (local.get $end)))
                  (local.get $end))))))
        (else (local.set $c (i32.const -1))))
      (if
        (i32.eq (local.get $c) (i32.const 44 (; ',' ;)))
        (then
          (local.set $p (call $ws (i32.add (local.get $p) (i32.const 1)) (local.get $end)))
          (br $member)))
      (if (i32.ne (local.get $c) (i32.const 125 (; '}' ;))) (then (return (i32.const -1))))
      (i32.store (i32.const 4096 (; member state ;)) (i32.const 0))
      (return (i32.add (local.get $p) (i32.const 1))))
    (i32.const -1))
  ;; emit(code, a, b): appends the tape entry [code, a, b] at the tape cursor; 0, or -4 when full.
  (func $emit (type $t3) (param $code i32) (param $a i32) (param $b i32) (result i32)
    (local $cursor i32)
    (if
      (i32.ge_u (local.tee $cursor (i32.load (i32.const 4108 (; tape cursor ;)))) (i32.const 20800 (; tape end ;)))
      (then (return (i32.const -4))))
    (i32.store (local.get $cursor) (local.get $code))
    (i32.store offset=4 (local.get $cursor) (local.get $a))
    (i32.store offset=8 (local.get $cursor) (local.get $b))
    (i32.store (i32.const 4108 (; tape cursor ;)) (i32.add (local.get $cursor) (i32.const 12)))
    (i32.const 0))
  ;; obj(p, end, node) (exported as walk): walks the object whose '{' is at p by the plan node at
  ;; `node` ([lengths mask, entry count], then five words per entry: key length, key address, kind
  ;; 0 leaf / 1 object / 2 array, child node, member id), checking every byte as skip does, and
  ;; appends one tape entry per planned member met (json-scan.ts: JsonScanner.walkObject). The index
  ;; past the '}', or -1 not valid, -3 a key holding an escape, -4 the tape is full.
  (func $obj (export "walk") (type $t3) (param $p i32) (param $end i32) (param $node i32) (result i32)
    (local $mask i32) (local $count i32) (local $first i32) (local $value i32) (local $key_open i32) (local $len i32) (local $entry i32) (local $i i32) (local $hit i32) (local $j i32) (local $plan_key i32) (local $c i32) (local $kind i32)
    (local.set $mask (i32.load (local.get $node)))
    (local.set $count (i32.load offset=4 (local.get $node)))
    (local.set $first (i32.const 1))
    ;; The next member whose key length the plan holds (member does the stepping over).
    (loop $member
      (if
        (i32.lt_s
          (local.tee $value
            (call $member (local.get $p) (local.get $end) (local.get $mask) (local.get $first)))
          (i32.const 0))
        (then (return (local.get $value))))
      (local.set $first (i32.const 0))
      (if (i32.eqz (i32.load (i32.const 4096 (; member state ;)))) (then (return (local.get $value))))
      (local.set $key_open (i32.load offset=4 (i32.const 4096 (; member state ;))))
      (local.set $len
        (i32.sub
          (i32.sub (i32.load offset=8 (i32.const 4096 (; member state ;))) (local.get $key_open))
          (i32.const 1)))
      ;; The plan's entry for this key: same length, same bytes ($hit 0: none).
      (local.set $hit (i32.const 0))
      (local.set $entry (i32.add (local.get $node) (i32.const 8)))
      (local.set $i (i32.const 0))
      (block $found
        (loop $entries
          (br_if $found (i32.ge_u (local.get $i) (local.get $count)))
          (if
            (i32.eq (i32.load (local.get $entry)) (local.get $len))
            (then
              (local.set $plan_key (i32.load offset=4 (local.get $entry)))
              (local.set $j (i32.const 0))
              (block $differ
                (loop $compare
                  (if
                    (i32.ge_u (local.get $j) (local.get $len))
                    (then
                      (local.set $hit (local.get $entry))
                      (br $found)))
                  (br_if $differ
                    (i32.ne
                      (i32.load8_u (i32.add (local.get $plan_key) (local.get $j)))
                      (i32.load8_u
                        (i32.add (i32.add (local.get $key_open) (i32.const 1)) (local.get $j)))))
                  (local.set $j (i32.add (local.get $j) (i32.const 1)))
                  (br $compare)))))
          (local.set $entry (i32.add (local.get $entry) (i32.const 20)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $entries)))
      ;; Not planned: checked and stepped over.
      (if
        (i32.eqz (local.get $hit))
        (then
          (if
            (i32.lt_s (local.tee $p (call $skip (local.get $value) (local.get $end))) (i32.const 0))
            (then (return (i32.const -1))))
          (br $member)))
      (local.set $c (call $at (local.get $value) (local.get $end)))
      (local.set $kind (i32.load offset=8 (local.get $hit)))
      ;; A planned object meeting an object: its members between TAPE_OPEN and TAPE_CLOSE entries.
      (if
        (i32.and (i32.eq (local.get $kind) (i32.const 1)) (i32.eq (local.get $c) (i32.const 123 (; '{' ;))))
        (then
          (if
            (i32.lt_s
              (call $emit
                (i32.or (i32.load offset=16 (local.get $hit)) (i32.const 65536 (; TAPE_OPEN ;)))
                (local.get $value)
                (i32.const 0))
              (i32.const 0))
            (then (return (i32.const -4))))
          (if
            (i32.lt_s
              (local.tee $p
                (call $obj
                  (local.get $value)
                  (local.get $end)
                  (i32.load offset=12 (local.get $hit))))
              (i32.const 0))
            (then (return (local.get $p))))
          (if
            (i32.lt_s (call $emit (i32.const 524288 (; TAPE_CLOSE ;)) (local.get $p) (i32.const 0)) (i32.const 0))
            (then (return (i32.const -4))))
          (br $member)))
      ;; A planned array meeting an array: its items between TAPE_ARRAY and TAPE_CLOSE entries.
      (if
        (i32.and (i32.eq (local.get $kind) (i32.const 2)) (i32.eq (local.get $c) (i32.const 91 (; '[' ;))))
        (then
          (if
            (i32.lt_s
              (call $emit
                (i32.or (i32.load offset=16 (local.get $hit)) (i32.const 131072 (; TAPE_ARRAY ;)))
                (local.get $value)
                (i32.const 0))
              (i32.const 0))
            (then (return (i32.const -4))))
          (if
            (i32.lt_s
              (local.tee $p
                (call $arr
                  (local.get $value)
                  (local.get $end)
                  (i32.load offset=12 (local.get $hit))))
              (i32.const 0))
            (then (return (local.get $p))))
          (if
            (i32.lt_s (call $emit (i32.const 524288 (; TAPE_CLOSE ;)) (local.get $p) (i32.const 0)) (i32.const 0))
            (then (return (i32.const -4))))
          (br $member)))
      ;; Anything else (a leaf, or a plan meeting another kind of value): checked, and its extent
      ;; given to the caller to build, as [id, start, end].
      (if
        (i32.lt_s (local.tee $p (call $skip (local.get $value) (local.get $end))) (i32.const 0))
        (then (return (i32.const -1))))
      (if
        (i32.lt_s
          (call $emit (i32.load offset=16 (local.get $hit)) (local.get $value) (local.get $p))
          (i32.const 0))
        (then (return (i32.const -4))))
      (br $member))
    (i32.const -1))
  ;; arr(p, end, items): the array whose '[' is at p; object items are walked by the plan node
  ;; `items` (0: none) between TAPE_ITEM | TAPE_OPEN and TAPE_CLOSE entries, any other item is
  ;; checked and written as [TAPE_ITEM, start, end]. The index past the ']', or < 0 as obj.
  (func $arr (type $t3) (param $p i32) (param $end i32) (param $items i32) (result i32)
    (local $c i32) (local $after i32)
    (local.set $p (call $ws (i32.add (local.get $p) (i32.const 1)) (local.get $end)))
    (if
      (i32.eq (call $at (local.get $p) (local.get $end)) (i32.const 93 (; ']' ;)))
      (then (return (i32.add (local.get $p) (i32.const 1)))))
    ;; An item, then ',' and the next, or ']'.
    (loop $item
      (local.set $c (call $at (local.get $p) (local.get $end)))
      (if
        (i32.and (i32.ne (local.get $items) (i32.const 0)) (i32.eq (local.get $c) (i32.const 123 (; '{' ;))))
        (then
          (if
            (i32.lt_s (call $emit (i32.const 327680 (; TAPE_ITEM | TAPE_OPEN ;)) (local.get $p) (i32.const 0)) (i32.const 0))
            (then (return (i32.const -4))))
          (if
            (i32.lt_s
              (local.tee $after (call $obj (local.get $p) (local.get $end) (local.get $items)))
              (i32.const 0))
            (then (return (local.get $after))))
          (if
            (i32.lt_s
              (call $emit (i32.const 524288 (; TAPE_CLOSE ;)) (local.get $after) (i32.const 0))
              (i32.const 0))
            (then (return (i32.const -4)))))
        (else
          (if
            (i32.lt_s (local.tee $after (call $skip (local.get $p) (local.get $end))) (i32.const 0))
            (then (return (i32.const -1))))
          (if
            (i32.lt_s
              (call $emit (i32.const 262144 (; TAPE_ITEM ;)) (local.get $p) (local.get $after))
              (i32.const 0))
            (then (return (i32.const -4))))))
      (if
        (i32.eq
          (local.tee $c
            (call $at
              (local.tee $p (call $ws (local.get $after) (local.get $end)))
              (local.get $end)))
          (i32.const 44 (; ',' ;)))
        (then
          (local.set $p (call $ws (i32.add (local.get $p) (i32.const 1)) (local.get $end)))
          (br $item)))
      (if (i32.ne (local.get $c) (i32.const 93 (; ']' ;))) (then (return (i32.const -1))))
      (return (i32.add (local.get $p) (i32.const 1))))
    (i32.const -1))
  ;; The escape table at 4160: 1 at the bytes that may follow a backslash as a one-byte escape
  ;; (" / \ b f n r t), 16 bytes a row.
  (data $escapes (i32.const 4160)
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\01\00\00\00\00\00\00\00\00\00\00\00\00\01"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\01\00\00\00"
    "\00\00\01\00\00\00\01\00\00\00\00\00\00\00\01\00"
    "\00\00\01\00\01\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"))
