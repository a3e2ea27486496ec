extension String {
  /// The text of `scalars`, encoded straight into the string's UTF-8 storage, which is made for
  /// their exact length (a text of up to 15 bytes is then stored in the string itself): cheaper
  /// than appending them to a `String.UnicodeScalarView` one by one.
  init(scalars: ArraySlice<Unicode.Scalar>) {
    let length = scalars.reduce(0) { $0 + UTF8.width($1) }
    self.init(unsafeUninitializedCapacity: length) { buffer in
      var count = 0
      for scalar in scalars {
        UTF8.encode(scalar) { byte in
          buffer[count] = byte
          count += 1
        }
      }
      return count
    }
  }
}
