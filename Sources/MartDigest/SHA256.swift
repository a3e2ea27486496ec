import COpenSSLCrypto
import Foundation

/// SHA-256 digests (OpenSSL's libcrypto).
public enum SHA256 {
  /// The lower-case hex SHA-256 of `data`.
  public static func hex(_ data: Data) -> String {
    var digest = [UInt8](repeating: 0, count: 32)
    let ok = data.withUnsafeBytes { buffer in
      mart_sha256(buffer.baseAddress, buffer.count, &digest)
    }
    precondition(ok == 1, "libcrypto's SHA-256 failed")
    let digits = Array("0123456789abcdef".utf8)
    var hex: [UInt8] = []
    hex.reserveCapacity(64)
    for byte in digest { hex += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
    return String(decoding: hex, as: UTF8.self)
  }
}
