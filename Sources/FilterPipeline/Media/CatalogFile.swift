import FilterEngine
import Foundation

extension Catalog {
    /// A catalogue file (`list --catalog`), read as a regular file of bounded size.
    public init(contentsOf url: URL) throws {
        let data: Data
        do { data = try RegularFile.read(url.path) } catch let error as ImageFileError {
            throw CatalogError(source: url.path, filter: nil, input: nil, message: error.message)
        }
        try self.init(json: data, source: url.path)
    }
}
