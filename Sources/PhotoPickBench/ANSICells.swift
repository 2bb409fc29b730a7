import Foundation
import PhotoBrowser
import PhotoImaging
import TerminalUI

/// Cells read back from a tool's ANSI output: SGR colours (24-bit, 256 and the 16 system colours,
/// reverse) and the characters they colour, one row per line.
enum ANSICells {
    static func parse(_ text: String) throws -> (columns: Int, rows: Int, cells: [PreviewDrawing.SeenCell]) {
        var rows: [[PreviewDrawing.SeenCell]] = [[]]
        var foreground: (UInt8, UInt8, UInt8) = (255, 255, 255), background: (UInt8, UInt8, UInt8) = (0, 0, 0), reverse = false
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{1B}", index + 1 < scalars.count, scalars[index + 1] == "[" {
                var end = index + 2
                while end < scalars.count, !(0x40...0x7E).contains(scalars[end].value) { end += 1 }
                guard end < scalars.count else { break }
                if scalars[end] == "m" {
                    let body = String(String.UnicodeScalarView(scalars[(index + 2)..<end]))
                    var codes = body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
                    if codes.isEmpty { codes = [0] }
                    var at = 0
                    while at < codes.count {
                        switch codes[at] {
                        case 0: foreground = (255, 255, 255); background = (0, 0, 0); reverse = false
                        case 7: reverse = true
                        case 27: reverse = false
                        case 39: foreground = (255, 255, 255)
                        case 49: background = (0, 0, 0)
                        case 30...37: foreground = PreviewDrawing.paletteRGB(UInt8(codes[at] - 30))
                        case 40...47: background = PreviewDrawing.paletteRGB(UInt8(codes[at] - 40))
                        case 90...97: foreground = PreviewDrawing.paletteRGB(UInt8(codes[at] - 82))
                        case 100...107: background = PreviewDrawing.paletteRGB(UInt8(codes[at] - 92))
                        case 38, 48:
                            let color: (UInt8, UInt8, UInt8)
                            if at + 2 < codes.count, codes[at + 1] == 5 {
                                color = PreviewDrawing.paletteRGB(UInt8(clamping: codes[at + 2]))
                                at += 2
                            } else if at + 4 < codes.count, codes[at + 1] == 2 {
                                color = (UInt8(clamping: codes[at + 2]), UInt8(clamping: codes[at + 3]), UInt8(clamping: codes[at + 4]))
                                at += 4
                            } else {
                                throw BenchError("an SGR colour this reader does not know: \(body)")
                            }
                            if isForeground(codes, endingAt: at) { foreground = color } else { background = color }
                        default: break
                        }
                        at += 1
                    }
                }
                index = end + 1
                continue
            }
            if scalar == "\n" {
                rows.append([])
            } else if scalar.value >= 0x20 {
                rows[rows.count - 1].append(PreviewDrawing.SeenCell(character: Character(scalar), foreground: reverse ? background : foreground,
                                                                    background: reverse ? foreground : background))
            }
            index += 1
        }
        rows = rows.filter { !$0.isEmpty }
        let columns = rows.map(\.count).max() ?? 0
        guard columns > 0, rows.allSatisfy({ $0.count == columns }) else { throw BenchError("the tool's rows differ in length: \(rows.map(\.count))") }
        return (columns, rows.count, rows.flatMap { $0 })
    }

    /// Whether the extended colour ending at `end` (…;38;5;N or …;38;2;R;G;B) is a foreground.
    private static func isForeground(_ codes: [Int], endingAt end: Int) -> Bool {
        var at = 0
        while at < codes.count {
            if codes[at] == 38 || codes[at] == 48 {
                let length = at + 1 < codes.count && codes[at + 1] == 5 ? 3 : 5
                if at + length - 1 == end { return codes[at] == 38 }
                at += length
            } else {
                at += 1
            }
        }
        return true
    }
}
