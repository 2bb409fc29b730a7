import Foundation

/// Edits the way users' tools do, for the tests of what photopick may delete or overwrite.
public enum FileEdits {
    public struct NoDate: Error {}

    /// Changes a byte near the end, keeping the length, and puts the modification time back, as
    /// `exiftool -P` does; returns the new bytes and the date.
    @discardableResult
    public static func editKeepingLengthAndDate(_ path: String) throws -> (bytes: Data, modified: Date) {
        let url = URL(fileURLWithPath: path)
        guard let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date else { throw NoDate() }
        var data = try Data(contentsOf: url)
        data[data.count - 3] ^= 0xFF
        let handle = try FileHandle(forWritingTo: url)
        try handle.write(contentsOf: data)
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
        return (data, modified)
    }

    /// `NAME (2).EXT` beside `NAME.EXT`: where a download goes when the name is taken.
    public static func secondName(_ path: String) -> String {
        let name = path as NSString
        return name.deletingPathExtension + " (2)." + name.pathExtension
    }
}
