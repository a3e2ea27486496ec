import Foundation

/// SHA-256 (FIPS 180-4) in plain Swift, so the kit verifies bundle files on every platform
/// without a C library or an Apple-only framework.
enum KitSHA256 {
  private static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
  ]

  private static let initialState: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
  ]

  /// The 32-byte digest of `data`.
  static func digest(_ data: Data) -> [UInt8] {
    var state = initialState
    let length = data.count
    // The message, a 0x80 byte, zeros up to 56 mod 64, then the bit length big-endian.
    var tail = [UInt8](data.suffix(length % 64))
    tail.append(0x80)
    while tail.count % 64 != 56 { tail.append(0) }
    let bitLength = UInt64(length) &* 8
    for shift in stride(from: 56, through: 0, by: -8) {
      tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
    }
    var schedule = [UInt32](repeating: 0, count: 64)
    let fullBlocks = length / 64
    data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
      for block in 0..<fullBlocks {
        compress(UnsafeRawBufferPointer(rebasing: buffer[(block * 64)..<(block * 64 + 64)]), &state, &schedule)
      }
    }
    tail.withUnsafeBytes { buffer in
      for start in stride(from: 0, to: buffer.count, by: 64) {
        compress(UnsafeRawBufferPointer(rebasing: buffer[start..<(start + 64)]), &state, &schedule)
      }
    }
    var result: [UInt8] = []
    result.reserveCapacity(32)
    for word in state {
      result += [
        UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8),
        UInt8(truncatingIfNeeded: word),
      ]
    }
    return result
  }

  /// The lower-case hex digest of `data`, as manifests write it.
  static func hex(_ data: Data) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(64)
    for byte in digest(data) { text += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
    return String(decoding: text, as: UTF8.self)
  }

  /// One 64-byte block into `state`; `w` is scratch space of 64 words.
  ///
  /// Written with pointers, masking shifts and `while` loops, whose operations the compiler
  /// inlines even without optimization: an app's debug build (and the tests') verifies bundles
  /// with this code, where subscripts, ranges' iterators and helper functions would each be a
  /// call per operation.
  private static func compress(_ block: UnsafeRawBufferPointer, _ state: inout [UInt32], _ w: inout [UInt32]) {
    let bytes = block.baseAddress!
    w.withUnsafeMutableBufferPointer { buffer in
      let w = buffer.baseAddress!
      var index = 0
      while index < 16 {
        w[index] = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self))
        index &+= 1
      }
      while index < 64 {
        let x = w[index &- 15]
        let y = w[index &- 2]
        let s0 = (x &>> 7 | x &<< 25) ^ (x &>> 18 | x &<< 14) ^ (x &>> 3)
        let s1 = (y &>> 17 | y &<< 15) ^ (y &>> 19 | y &<< 13) ^ (y &>> 10)
        w[index] = w[index &- 16] &+ s0 &+ w[index &- 7] &+ s1
        index &+= 1
      }
      var a = state[0]
      var b = state[1]
      var c = state[2]
      var d = state[3]
      var e = state[4]
      var f = state[5]
      var g = state[6]
      var h = state[7]
      roundConstants.withUnsafeBufferPointer { constants in
        let k = constants.baseAddress!
        var index = 0
        while index < 64 {
          let s1 = (e &>> 6 | e &<< 26) ^ (e &>> 11 | e &<< 21) ^ (e &>> 25 | e &<< 7)
          let choice = (e & f) ^ (~e & g)
          let t1 = h &+ s1 &+ choice &+ k[index] &+ w[index]
          let s0 = (a &>> 2 | a &<< 30) ^ (a &>> 13 | a &<< 19) ^ (a &>> 22 | a &<< 10)
          let majority = (a & b) ^ (a & c) ^ (b & c)
          let t2 = s0 &+ majority
          h = g
          g = f
          f = e
          e = d &+ t1
          d = c
          c = b
          b = a
          a = t1 &+ t2
          index &+= 1
        }
      }
      state[0] &+= a
      state[1] &+= b
      state[2] &+= c
      state[3] &+= d
      state[4] &+= e
      state[5] &+= f
      state[6] &+= g
      state[7] &+= h
    }
  }
}
