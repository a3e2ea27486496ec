import ArgumentParser
import MartCore

extension BrandSlug: ExpressibleByArgument {}
extension DateCoverage: ExpressibleByArgument {}

extension CalendarDate: ExpressibleByArgument {
  public init?(argument: String) { self.init(iso: argument) }
}
