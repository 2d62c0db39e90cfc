import Testing
@testable import FilterExplorer
