/// iTerm2's inline image command (OSC 1337), which iTerm2, WezTerm and mlterm draw: the file's bytes in
/// base64, scaled by the terminal into the cells given, its shape kept.
enum ITermImage {
    /// The command for a file already in base64, fitted to `columns` × `rows` cells at the cursor.
    static func inline(base64: [UInt8], columns: Int, rows: Int) -> [UInt8] {
        let size = base64.count / 4 * 3
        var bytes = Array("\u{1B}]1337;File=inline=1;size=\(size);width=\(columns);height=\(rows);preserveAspectRatio=1;doNotMoveCursor=1:".utf8)
        bytes.reserveCapacity(bytes.count + base64.count + 2)
        bytes += base64
        bytes += [0x1B, UInt8(ascii: "\\")]
        return bytes
    }
}
