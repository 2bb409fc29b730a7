import Foundation

/// Facts about the folder downloads go to.
enum DownloadLocation {
    /// Free bytes on the file system that holds `directory`, or would once it is created.
    static func freeSpace(for directory: URL) -> Int64? {
        var url = directory.standardizedFileURL
        while !FileManager.default.fileExists(atPath: url.path), url.path != "/" {
            url.deleteLastPathComponent()
        }
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: url.path)
        return (attributes?[.systemFreeSize] as? NSNumber)?.int64Value
    }
}
