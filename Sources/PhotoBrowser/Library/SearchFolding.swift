import Foundation

/// Folds text for matching: lower case, accents removed, so "cafe" finds "Café" and "ŽLUŤOUČKÝ" finds "žluťoučký".
enum SearchFolding {
    /// The folded text as UTF-8 bytes.
    static func fold(_ text: String) -> [UInt8] {
        // Most names are ASCII; folding them byte by byte avoids Foundation's per-string cost.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.utf8.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }
        }
        let decomposed = text.decomposedStringWithCanonicalMapping
        var scalars = String.UnicodeScalarView()
        for scalar in decomposed.unicodeScalars where !isMark(scalar) {
            scalars.append(scalar)
        }
        return Array(String(scalars).lowercased().utf8)
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: true
        default: false
        }
    }
}
