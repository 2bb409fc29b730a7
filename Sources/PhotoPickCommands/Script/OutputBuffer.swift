import Foundation

/// Standard output for the verbs: text gathered and written in large pieces, so 100,000 lines cost a
/// few writes; `flush` after each line when a consumer reads as it goes (`--jsonl`).
struct OutputBuffer {
    private var bytes: [UInt8] = []
    let lineByLine: Bool

    init(lineByLine: Bool = false) {
        self.lineByLine = lineByLine
        bytes.reserveCapacity(1 << 16)
    }

    mutating func line(_ text: String) {
        bytes += text.utf8
        bytes.append(0x0A)
        if lineByLine || bytes.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 { offset += written } else if written < 0, errno == EINTR { continue } else { return }
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }
}
