import ExtrasBase64

/// The kitty graphics protocol's commands, as bytes: `ESC _ G key=value,…;payload ESC \`. Every command
/// carries `q=2`, so the terminal answers nothing and no reply can reach the input.
enum KittyCommands {
    /// Base64 bytes per chunk: the protocol's limit.
    static let chunkSize = 4096

    /// Sends `image` (packed RGB, or a PNG) as image `id`, in chunks of `chunkSize` base64 bytes with `m=1` on
    /// all but the last. With `virtual`, it is placed for Unicode placeholders over `columns` × `rows`.
    static func transmit(
        id: UInt32, width: Int, height: Int, base64: [UInt8], png: Bool = false, virtual: (columns: Int, rows: Int)? = nil
    ) -> [[UInt8]] {
        transmitUnits(id: id, width: width, height: height, base64: base64, png: png, virtual: virtual).map(\.bytes)
    }

    /// `transmit`'s chunks as units whose bodies are slices of `base64`, not copies of it; through
    /// tmux each is wrapped for passthrough (base64 has no escape to double).
    static func transmitUnits(
        id: UInt32, width: Int, height: Int, base64: [UInt8], png: Bool = false, virtual: (columns: Int, rows: Int)? = nil, tmux: Bool = false
    ) -> [WireUnit] {
        var units: [WireUnit] = []
        var offset = 0
        repeat {
            let end = min(base64.count, offset + chunkSize)
            let more = end < base64.count ? 1 : 0
            var keys: String
            if offset == 0 {
                let format = png ? "f=100" : "f=24,s=\(width),v=\(height)"
                keys = "a=\(virtual == nil ? "t" : "T"),\(format),i=\(id),q=2,m=\(more)"
                if let virtual { keys += ",U=1,c=\(virtual.columns),r=\(virtual.rows)" }
            } else {
                keys = "q=2,m=\(more)"
            }
            var (head, tail) = frame(keys, payload: end > offset)
            if tmux { (head, tail) = TmuxPassthrough.wrap(head: head, tail: tail) }
            units.append(WireUnit(head: head, body: base64[offset..<end], tail: tail, kind: .transmit))
            offset = end
        } while offset < base64.count
        return units
    }

    /// Sends image `id` (packed RGB, `size` bytes) through the shared memory object `name` (`t=s`).
    static func transmitShared(id: UInt32, width: Int, height: Int, name: String, size: Int) -> [UInt8] {
        command("a=t,f=24,s=\(width),v=\(height),i=\(id),t=s,S=\(size),q=2", payload: Base64.encodeToBytes(bytes: Array(name.utf8))[...])
    }

    /// The probe's second query: a 1×1 image in shared memory, which only a terminal on this machine can
    /// read; it answers `OK` under id 32.
    static func sharedMemoryQuery(name: String) -> [UInt8] {
        command("i=32,s=1,v=1,a=q,t=s,f=24,S=3", payload: Base64.encodeToBytes(bytes: Array(name.utf8))[...])
    }

    /// Shows image `id` at the cursor, as placement 1 (so placing it again moves it), without moving the cursor.
    /// With `cells`, kitty scales the image to that many columns and rows (a reduced image, shown in
    /// the whole image's cells).
    static func place(id: UInt32, cells: (columns: Int, rows: Int)? = nil) -> [UInt8] {
        command("a=p,i=\(id),p=1,\(cells.map { "c=\($0.columns),r=\($0.rows)," } ?? "")C=1,q=2")
    }

    /// Removes image `id`'s placements from the screen and keeps its pixels for later.
    static func hide(id: UInt32) -> [UInt8] {
        command("a=d,d=i,i=\(id),q=2")
    }

    /// Removes image `id` and frees its pixels.
    static func free(id: UInt32) -> [UInt8] {
        command("a=d,d=I,i=\(id),q=2")
    }

    /// Removes every image and frees them: for leaving the screen.
    static let freeAll = command("a=d,d=A,q=2")

    /// The query the probe sends: a 1×1 image the terminal checks without keeping; it answers `OK`.
    static let query = command("i=31,s=1,v=1,a=q,t=d,f=24", payload: Array("AAAA".utf8)[...])

    private static func command(_ keys: String, payload: ArraySlice<UInt8> = []) -> [UInt8] {
        let (head, tail) = frame(keys, payload: !payload.isEmpty)
        return head + payload + tail
    }

    /// A command's framing around its payload: `ESC _ G`, the keys, `;` when a payload follows, and the
    /// closing `ESC \`.
    private static func frame(_ keys: String, payload: Bool) -> (head: [UInt8], tail: [UInt8]) {
        var head: [UInt8] = [0x1B, UInt8(ascii: "_"), UInt8(ascii: "G")]
        head.reserveCapacity(keys.utf8.count + 4)
        head += keys.utf8
        if payload { head.append(UInt8(ascii: ";")) }
        return (head, [0x1B, UInt8(ascii: "\\")])
    }
}
