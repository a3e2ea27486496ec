import CLibDeflate
import CZlib
import Foundation

/// gzip: compressed by libdeflate and read by zlib, with output that depends on the input alone
/// (no file name, modification time 0), so compressed copies in a bundle are as deterministic
/// as the files they copy.
public enum Gzip {
  /// A zlib call failed.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var code: Int32
    /// The most bytes the stream was allowed to hold, when it holds more.
    public var limit: Int?
    public var description: String {
      if let limit { return "decompresses to more than \(limit) bytes" }
      return code == Z_DATA_ERROR ? "not a complete gzip stream" : "zlib error \(code)"
    }
  }

  /// The level of a bundle's gzip copies. libdeflate's 7 makes copies about 1.5 % smaller than
  /// zlib's 9 in about a third of its time (15 MB of bundle JSON, 2026-11: 1.30 MB in 0.13 s of
  /// CPU against 1.32 MB in 0.36 s); its 9 saves another 3 % for three times the time again.
  public static let bundleLevel: Int32 = 7

  /// One gzip member holding `data`, compressed at ``bundleLevel``.
  public static func compress(_ data: Data) -> Data {
    compress(data, level: bundleLevel)
  }

  /// One gzip member holding `data`, compressed by libdeflate at `level` (1, fastest, to 12,
  /// smallest), with a header that depends on the level alone: no file name, modification
  /// time 0.
  public static func compress(_ data: Data, level: Int32) -> Data {
    Compressor(level: level).compress(data)
  }

  /// A libdeflate compressor kept for many members: its tables are allocated once, not per
  /// member (what a file of many small members, a WARC archive, spends most on otherwise). Not
  /// for use by two threads at once.
  public final class Compressor {
    private let compressor: OpaquePointer

    /// A compressor at `level` (1, fastest, to 12, smallest).
    public init(level: Int32) {
      guard let compressor = libdeflate_alloc_compressor(level) else {
        preconditionFailure("libdeflate has no compression level \(level) or no memory for it")
      }
      self.compressor = compressor
    }

    deinit { libdeflate_free_compressor(compressor) }

    /// One gzip member holding `data`.
    public func compress(_ data: Data) -> Data {
      // Left uninitialized: libdeflate writes only the compressed bytes, so of a buffer as large
      // as the input only those pages are ever touched (a zero-filled one would cost the input's
      // size again in memory, 120 MB for the `branches.json` of 100,000 branches).
      let buffer = UnsafeMutableRawBufferPointer.allocate(
        byteCount: libdeflate_gzip_compress_bound(compressor, data.count), alignment: 1)
      defer { buffer.deallocate() }
      let written = data.withUnsafeBytes { input in
        // An empty input may have no address; libdeflate reads no byte of it then.
        libdeflate_gzip_compress(
          compressor, input.baseAddress ?? UnsafeRawPointer(buffer.baseAddress!), input.count, buffer.baseAddress,
          buffer.count)
      }
      // The buffer is sized by libdeflate's own bound, so nothing written means a broken library.
      precondition(written > 0, "libdeflate's gzip compression wrote nothing")
      return Data(bytes: buffer.baseAddress!, count: written)
    }
  }

  /// The content of one gzip member.
  public static func decompress(_ data: Data) throws(Failure) -> Data {
    var capacity = max(4096, data.count * 8)
    while true {
      let (status, output) = inflate(data, capacity: capacity)
      if status == Z_OK { return output }
      guard status == Z_BUF_ERROR, capacity < 1 << 31 else { throw Failure(code: status) }
      capacity *= 4
    }
  }

  /// The content of one gzip member that should hold at most `limit` bytes (a file whose size
  /// is known): inflating stops once the output passes `limit`, so a small stream that expands
  /// to gigabytes costs `limit + 1` bytes of memory and throws.
  public static func decompress(_ data: Data, atMost limit: Int) throws(Failure) -> Data {
    let (status, output) = inflate(data, capacity: limit + 1)
    if status == Z_BUF_ERROR || (status == Z_OK && output.count > limit) {
      throw Failure(code: Z_BUF_ERROR, limit: limit)
    }
    guard status == Z_OK else { throw Failure(code: status) }
    return output
  }

  /// The contents of the gzip members `data` holds one after another, each inflated into at most
  /// `limit` bytes: a member that expands further, or bytes that are not a complete member,
  /// throw (with the member's offset in `data`). Empty data holds no member.
  public static func members(_ data: Data, atMost limit: Int) throws(MemberFailure) -> [Data] {
    var members: [Data] = []
    var offset = 0
    var output = [UInt8](repeating: 0, count: limit + 1)
    while offset < data.count {
      var consumed = 0
      var written = 0
      let status = data.withUnsafeBytes { input in
        output.withUnsafeMutableBytes { buffer in
          mart_gunzip_member(
            input.baseAddress! + offset, input.count - offset, buffer.baseAddress, buffer.count, &consumed, &written)
        }
      }
      if status == Z_BUF_ERROR || (status == Z_OK && written > limit) {
        throw MemberFailure(offset: offset, failure: Failure(code: Z_BUF_ERROR, limit: limit))
      }
      guard status == Z_OK, consumed > 0 else { throw MemberFailure(offset: offset, failure: Failure(code: status)) }
      members.append(Data(output[..<written]))
      offset += consumed
    }
    return members
  }

  /// A member of a multi-member stream that could not be read, and where it starts.
  public struct MemberFailure: Error, Sendable, CustomStringConvertible {
    /// The byte offset of the member in the stream.
    public var offset: Int
    public var failure: Failure
    public var description: String { "the gzip member at byte \(offset): \(failure)" }
  }

  /// One inflation of `data` into at most `capacity` bytes: zlib's status and what it wrote.
  private static func inflate(_ data: Data, capacity: Int) -> (Int32, Data) {
    var output = [UInt8](repeating: 0, count: capacity)
    var written = 0
    let status = data.withUnsafeBytes { input in
      output.withUnsafeMutableBytes { buffer in
        mart_gunzip(input.baseAddress, input.count, buffer.baseAddress, buffer.count, &written)
      }
    }
    return (status, Data(output[..<written]))
  }
}
