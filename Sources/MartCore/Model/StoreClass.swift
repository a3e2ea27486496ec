/// The class of store a closing-day designation binds (유통산업발전법 제12조의2).
///
/// A 시·군·구 designates closing days for 대규모점포 and 준대규모점포 separately, and the two
/// classes may close on different days in one district.
public enum StoreClass: String, Sendable, Hashable, Codable, CaseIterable {
  /// A 대규모점포 that is a hypermarket (대형마트), and the formats trading inside one.
  case hypermarket
  /// A 준대규모점포: a supermarket of a large retailer (SSM).
  case ssm
}
