import TerminalUI

extension String {
    /// The text with spaces added to fill `columns` terminal columns, counted as the browser's canvas
    /// counts them, so wide (CJK, emoji) names line up in the tables.
    func padded(toColumns columns: Int, alignRight: Bool = false) -> String {
        let gap = String(repeating: " ", count: Swift.max(0, columns - DisplayWidth.of(self)))
        return alignRight ? gap + self : self + gap
    }
}
