import COpenSSLCrypto
import Foundation

/// SHA-256 digests (OpenSSL's libcrypto).
public enum SHA256 {
  /// The lower-case hex SHA-256 of `data`.
  public static func hex(_ data: Data) -> String {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { digest in
      let ok = data.withUnsafeBytes { buffer in
        mart_sha256(buffer.baseAddress, buffer.count, digest.baseAddress)
      }
      precondition(ok == 1, "libcrypto's SHA-256 failed")
      return hexDigits(UnsafeBufferPointer(digest))
    }
  }
}

extension SHA256 {
  /// A SHA-256 computed over bytes given piece by piece; equal to ``SHA256/hex(_:)`` of all the
  /// pieces joined.
  public final class Hasher {
    private let context: OpaquePointer

    public init() {
      guard let context = mart_sha256_new() else { preconditionFailure("libcrypto cannot start a SHA-256") }
      self.context = context
    }

    deinit { mart_sha256_free(context) }

    /// Adds `bytes` to the digest.
    public func update(_ bytes: UnsafeRawBufferPointer) {
      guard bytes.count > 0 else { return }
      precondition(mart_sha256_update(context, bytes.baseAddress, bytes.count) == 1, "libcrypto's SHA-256 failed")
    }

    /// The lower-case hex digest of everything added. Call once.
    public func finalize() -> String {
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { digest in
        precondition(mart_sha256_final(context, digest.baseAddress) == 1, "libcrypto's SHA-256 failed")
        return SHA256.hexDigits(UnsafeBufferPointer(digest))
      }
    }
  }

  /// `digest` in lower-case hex, two digits a byte, each looked up by its half-byte.
  static func hexDigits(_ digest: UnsafeBufferPointer<UInt8>) -> String {
    let digits: StaticString = "0123456789abcdef"
    let table = digits.utf8Start
    return String(unsafeUninitializedCapacity: digest.count * 2) { hex in
      for (index, byte) in digest.enumerated() {
        hex[2 * index] = table[Int(byte >> 4)]
        hex[2 * index + 1] = table[Int(byte & 0x0F)]
      }
      return digest.count * 2
    }
  }
}
