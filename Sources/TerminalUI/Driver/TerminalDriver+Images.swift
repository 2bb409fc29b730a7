import CNcursesw
import Foundation
import PhotoPickSettings

/// Images on an ncurses screen: their bytes go out after ncurses has written the frame, and cells an
/// image leaves are repainted, since ncurses believes they already show what the canvas says.
extension TerminalDriver {
    /// Makes ncurses write `rect`'s cells again: it believes they already show what the canvas says,
    /// while the terminal still shows an image's pixels there. Writing the cells removes the pixels.
    func repaint(_ rect: Rect) {
        let rect = Rect(x: rect.x, y: rect.y, width: min(rect.width, width - rect.x), height: min(rect.height, height - rect.y))
        guard rect.width > 0, rect.height > 0, let part = derwin(cnc_stdscr(), Int32(rect.height), Int32(rect.width), Int32(rect.y), Int32(rect.x)) else { return }
        wredrawln(part, 0, Int32(rect.height))
        wnoutrefresh(part)
        delwin(part)
    }

    /// Writes the plan's image bytes in one go, after ncurses's own output has left.
    func writeImages(_ plan: ImageLayer.Plan) {
        let bytes = plan.bytes
        guard !bytes.isEmpty else { return }
        if let output {
            // Headless (benchmarks): the bytes are counted with the frame's.
            bytes.withUnsafeBufferPointer { _ = fwrite($0.baseAddress, 1, $0.count, output) }
            fflush(output)
        } else {
            if let terminalOutput { fflush(terminalOutput) }
            Self.writeAll(bytes, to: STDOUT_FILENO)
        }
        for placement in plan.placed {
            logger?.debug("\(Self.placedLine(placement, mode: images.mode))")
        }
    }

    /// The log's line for an image on screen.
    nonisolated static func placedLine(_ placement: ImagePlacement, mode: GraphicsMode) -> String {
        "image placed: photo \(placement.photoID), \(mode.rawValue), cells \(placement.rect.width)×\(placement.rect.height) at \(placement.rect.x),\(placement.rect.y), pixels \(placement.payload?.size.description ?? "?")"
    }

    /// Writes every byte, through short writes and interrupts.
    nonisolated static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR || errno == EAGAIN {
                    continue
                } else {
                    return
                }
            }
        }
    }

    /// Removes every image from the terminal before it is handed back.
    func clearImages() {
        // Nothing waiting is written after this, and a transmission under way ends before the free.
        if let wire {
            // Images of frames whose text never went are not sent either.
            waiting = WireQueue()
            wire.drain()
            // The answers to the writer's queries are read here, not left for the shell to read as typed.
            let deadline = clock.elapsed() + .seconds(1)
            while wire.isAwaitingAnswers, clock.elapsed() < deadline {
                pendingInput = readInput()
                // Waits for the next bytes (an answer), at most 5 ms, rather than sleeping.
                var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                _ = poll(&poller, 1, 5)
            }
        }
        let bytes = images.clearAll()
        guard !bytes.isEmpty, output == nil else { return }
        if let terminalOutput { fflush(terminalOutput) }
        Self.writeAll(bytes, to: STDOUT_FILENO)
    }
}
