import Foundation

/// Byte counts as people read them.
public enum ByteText {
    /// "5.4 MB", in decimal units like file managers.
    public static func format(_ bytes: Int64) -> String {
        // Foundation spells nothing as "Zero kB".
        bytes == 0 ? "0 B" : bytes.formatted(.byteCount(style: .file))
    }
}
