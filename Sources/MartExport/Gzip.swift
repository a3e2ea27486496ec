import CZlib
import Foundation

/// gzip through zlib, with output that depends on the input alone (no file name, modification
/// time 0), so compressed copies in a bundle are as deterministic as the files they copy.
public enum Gzip {
  /// A zlib call failed.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var code: Int32
    public var description: String {
      code == Z_DATA_ERROR ? "not a complete gzip stream" : "zlib error \(code)"
    }
  }

  /// One gzip member holding `data`, compressed at the highest level.
  public static func compress(_ data: Data) -> Data {
    var output = [UInt8](repeating: 0, count: mart_gzip_bound(data.count))
    var written = 0
    let status = data.withUnsafeBytes { input in
      output.withUnsafeMutableBytes { buffer in
        mart_gzip(input.baseAddress, input.count, buffer.baseAddress, buffer.count, &written)
      }
    }
    // The buffer is sized by zlib's own bound, so anything but success is a broken zlib.
    precondition(status == Z_OK, "zlib's deflate failed with \(status)")
    return Data(output[..<written])
  }

  /// The content of one gzip member.
  public static func decompress(_ data: Data) throws(Failure) -> Data {
    var capacity = max(4096, data.count * 8)
    while true {
      var output = [UInt8](repeating: 0, count: capacity)
      var written = 0
      let status = data.withUnsafeBytes { input in
        output.withUnsafeMutableBytes { buffer in
          mart_gunzip(input.baseAddress, input.count, buffer.baseAddress, buffer.count, &written)
        }
      }
      if status == Z_OK { return Data(output[..<written]) }
      guard status == Z_BUF_ERROR, capacity < 1 << 31 else { throw Failure(code: status) }
      capacity *= 4
    }
  }
}
