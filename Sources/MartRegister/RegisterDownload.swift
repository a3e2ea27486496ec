/// Where the national register of large stores is published (brand-sources.md §11.1, read
/// 2026-12-02): one keyless CSV of the whole country, updated daily.
public enum RegisterDownload {
  /// The CSV (CP949).
  public static let url = "https://file.localdata.go.kr/file/download/large_scale_retail_stores/info"
  /// The page the download is linked from: the server answers the CSV only to a request that
  /// names it as `Referer` (a session cookie it sets may come along).
  public static let referer = "https://file.localdata.go.kr/file/large_scale_retail_stores/info"
}
