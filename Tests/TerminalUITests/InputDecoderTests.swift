import Testing
@testable import TerminalUI
import PhotoPickSettings

/// The input decoder: keys, clicks and pastes out; every reply a terminal sends consumed whole, however
/// it is split and whenever it comes.
@Suite struct InputDecoderTests {
    private func keys(_ inputs: [TerminalInput]) -> [TerminalInput] {
        inputs.filter { input in
            switch input {
            case .key, .mouse, .paste: true
            case .reply, .dropped: false
            }
        }
    }

    private func decode(_ text: String) -> [TerminalInput] {
        var decoder = InputDecoder()
        var output = decoder.feed(Array(text.utf8), at: .zero)
        output += decoder.expire(at: .seconds(10))
        return keys(output)
    }

    @Test func plainAndControlKeys() {
        #expect(decode("jk q") == [.key(.character("j")), .key(.character("k")), .key(.character(" ")), .key(.character("q"))])
        #expect(decode("\r\t\u{7F}\u{04}\u{08}") == [.key(.enter), .key(.tab), .key(.backspace), .key(.control("d")), .key(.backspace)])
        #expect(decode("東é🏔") == [.key(.character("東")), .key(.character("é")), .key(.character("🏔"))])
        // Ctrl-Space, Ctrl-\ and broken UTF-8 are no keys.
        #expect(decode("\u{00}\u{1C}").isEmpty)
        #expect(keys({ var decoder = InputDecoder(); return decoder.feed([0xE6, 0x41, 0xFF, 0x80], at: .zero) }()) == [.key(.character("A"))])
    }

    @Test func cursorAndFunctionKeysInEveryEncoding() {
        #expect(decode("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.key(.up), .key(.down), .key(.right), .key(.left)])
        #expect(decode("\u{1B}OA\u{1B}OB\u{1B}OH\u{1B}OF") == [.key(.up), .key(.down), .key(.home), .key(.end)])
        #expect(decode("\u{1B}[1;5A\u{1B}[1;2D") == [.key(.up), .key(.left)])
        #expect(decode("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~") == [.key(.home), .key(.end), .key(.home), .key(.end), .key(.home), .key(.end)])
        #expect(decode("\u{1B}[5~\u{1B}[6~\u{1B}[3~\u{1B}[Z") == [.key(.pageUp), .key(.pageDown), .key(.delete), .key(.backTab)])
        #expect(decode("\u{1B}OP\u{1B}OS\u{1B}[15~\u{1B}[24~\u{1B}[[A") == [.key(.function(1)), .key(.function(4)), .key(.function(5)), .key(.function(12)), .key(.function(1))])
        // The keypad in application mode types its digits.
        #expect(decode("\u{1B}Oq\u{1B}Oy\u{1B}OM") == [.key(.character("1")), .key(.character("9")), .key(.enter)])
        // Insert and unknown sequences are nothing.
        #expect(decode("\u{1B}[2~\u{1B}[99~\u{1B}[27;5;106~").isEmpty)
    }

    @Test func aLoneEscIsTheEscapeKeyAfterItsDelayAndEscWithAKeyIsAlt() {
        var decoder = InputDecoder()
        #expect(decoder.feed([0x1B], at: .zero).isEmpty)
        #expect(decoder.deadline == InputDecoder.escapeDelay)
        #expect(decoder.expire(at: .milliseconds(24)).isEmpty)
        #expect(decoder.expire(at: .milliseconds(25)) == [.key(.escape)])
        #expect(decoder.deadline == nil)
        // Esc and a key together: Alt+key.
        #expect(keys(decoder.feed(Array("\u{1B}j".utf8), at: .seconds(2))) == [.key(.alt("j"))])
        // Esc, then a key after the delay: Escape, then the key (feed expires what is due first).
        #expect(decoder.feed([0x1B], at: .seconds(3)).isEmpty)
        #expect(keys(decoder.feed(Array("j".utf8), at: .seconds(3) + .milliseconds(30))) == [.key(.escape), .key(.character("j"))])
        // Esc and `/`, space or `-` are Alt keys, never the start of a sequence that swallows what follows.
        #expect(keys(decoder.feed(Array("\u{1B}/ra".utf8), at: .seconds(3) + .milliseconds(100))) == [.key(.alt("/")), .key(.character("r")), .key(.character("a"))])
        #expect(keys(decoder.feed(Array("\u{1B} \u{1B}-".utf8), at: .seconds(3) + .milliseconds(200))) == [.key(.alt(" ")), .key(.alt("-"))])
        // Esc and a control key at once are both keys: Esc, then Ctrl-Z or Enter.
        #expect(keys(decoder.feed([0x1B, 0x1A, 0x1B, 0x0D], at: .seconds(3) + .milliseconds(300))) == [.key(.escape), .key(.control("z")), .key(.escape), .key(.enter)])
        // Esc twice, and Alt with an introducer alone.
        #expect(keys(decoder.feed([0x1B, 0x1B], at: .seconds(4)) + decoder.expire(at: .seconds(5))) == [.key(.escape), .key(.escape)])
        #expect(keys(decoder.feed(Array("\u{1B}[".utf8), at: .seconds(6)) + decoder.expire(at: .seconds(7))) == [.key(.alt("["))])
        #expect(keys(decoder.feed(Array("\u{1B}P".utf8), at: .seconds(8)) + decoder.expire(at: .seconds(9))) == [.key(.alt("P"))])
    }

    @Test func mouseReportsInSGRAndX10() {
        #expect(decode("\u{1B}[<0;10;5M\u{1B}[<0;10;5m") == [.mouse(MouseEvent(.click, x: 9, y: 4))])
        #expect(decode("\u{1B}[<64;3;3M\u{1B}[<65;3;3M") == [.mouse(MouseEvent(.wheelUp, x: 2, y: 2)), .mouse(MouseEvent(.wheelDown, x: 2, y: 2))])
        // Drags and other buttons are no clicks.
        #expect(decode("\u{1B}[<32;3;3M\u{1B}[<2;3;3M").isEmpty)
        #expect(decode("\u{1B}[M !!\u{1B}[M#!!") == [.mouse(MouseEvent(.click, x: 0, y: 0))])
    }

    @Test func aPasteIsTextNeverKeys() {
        #expect(decode("\u{1B}[200~iiii 1\u{1B}[A\u{7F}\r\u{1B}[201~j") == [.paste("iiii 1\u{1B}[A\u{7F}\r"), .key(.character("j"))])
        // Split anywhere, over time (right after its Esc or `[`, within the Esc delay: else that was Esc or Alt-[).
        let bytes = Array("\u{1B}[200~beach 東京\u{1B}[201~".utf8)
        for cut in 1..<bytes.count {
            var decoder = InputDecoder()
            let gap: Duration = cut <= 2 ? .milliseconds(20) : .milliseconds(900)
            let output = decoder.feed(bytes[..<cut], at: .zero) + decoder.feed(bytes[cut...], at: gap)
            #expect(keys(output) == [.paste("beach 東京")], "cut at \(cut)")
        }
        // An unfinished paste is text once the link is quiet, and a huge one is kept to its limit.
        var decoder = InputDecoder()
        _ = decoder.feed(Array("\u{1B}[200~half".utf8), at: .zero)
        #expect(decoder.expire(at: .seconds(2)) == [.paste("half")])
        let huge = [UInt8](repeating: UInt8(ascii: "a"), count: InputDecoder.pasteLimit + 10)
        let output = decoder.feed(Array("\u{1B}[200~".utf8) + huge + Array("\u{1B}[201~q".utf8), at: .seconds(3))
        #expect(output.count == 2 && output.last == .key(.character("q")))
        if case .paste(let text) = output.first { #expect(text.utf8.count == InputDecoder.pasteLimit) }
    }

    @Test func theProbesLateAnswersAreRepliesNotKeys() {
        // The reply that inverted the selection and toggled tag 1 on a slow link.
        var decoder = InputDecoder()
        let output = decoder.feed(Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}[?62;c".utf8), at: .seconds(2))
        #expect(output == [.reply(Array("\u{1B}_Gi=31;OK\u{1B}\\".utf8)), .reply(Array("\u{1B}P>|kitty(0.26.5)\u{1B}\\".utf8)), .reply(Array("\u{1B}[?62;c".utf8))])
        // Its Esc alone in one packet, the rest half a second later: one Escape, and the rest is still a reply.
        var split = InputDecoder()
        #expect(split.feed([0x1B], at: .zero).isEmpty)
        #expect(split.expire(at: .milliseconds(30)) == [.key(.escape)])
        #expect(keys(split.feed(Array("_Gi=31;OK\u{1B}\\".utf8), at: .milliseconds(500))).isEmpty)
        // Typed keys after a timed-out Esc are keys.
        #expect(split.feed([0x1B], at: .seconds(5)).isEmpty)
        #expect(split.expire(at: .seconds(5) + .milliseconds(30)) == [.key(.escape)])
        #expect(keys(split.feed(Array("P".utf8), at: .seconds(5) + .milliseconds(200)) + split.expire(at: .seconds(9))) == [.key(.character("P"))])
    }

    @Test func aRunawayStringIsDroppedAtItsLimitAndASecondAfterItsStart() {
        var decoder = InputDecoder()
        let runaway = Array("\u{1B}_G".utf8) + [UInt8](repeating: UInt8(ascii: "i"), count: 100_000)
        var output = decoder.feed(runaway, at: .zero)
        #expect(keys(output).isEmpty)
        // Keys typed into it cannot keep it open: a second after its ESC it is dropped, and keys count again.
        #expect(keys(decoder.feed(Array("x".utf8), at: .milliseconds(600))).isEmpty)
        output = decoder.feed(Array("j".utf8), at: .milliseconds(1_100))
        #expect(keys(output) == [.key(.character("j"))])
        if case .dropped(let prefix, let length) = output.first { #expect(prefix.count == 64 && length == 100_004) } else { Issue.record("not dropped") }
        // Ended, but past the limit: dropped, never a reply.
        output = decoder.feed(runaway + Array("\u{1B}\\k".utf8), at: .seconds(3))
        #expect(output.count == 2 && keys(output) == [.key(.character("k"))])
    }

    /// A probe answered with garbage that opens strings it never ends: a byte no such string holds ends it,
    /// so the `q` typed next is a key.
    @Test func aStringWithAByteItCannotHoldEndsThere() {
        var decoder = InputDecoder()
        let output = decoder.feed(Array("\u{1B}P>|\u{1B}]11;\u{1B}_Gi=31;".utf8) + [0xFF, 0xFE], at: .zero) + decoder.feed(Array("q".utf8), at: .milliseconds(50))
        #expect(keys(output) == [.key(.character("q"))])
        // OSC holds UTF-8, and a DCS or APC does not.
        var titles = InputDecoder()
        #expect(titles.feed(Array("\u{1B}]2;東京\u{07}".utf8), at: .zero) == [.reply(Array("\u{1B}]2;東京\u{07}".utf8))])
        #expect(keys(titles.feed(Array("\u{1B}_G東q".utf8), at: .seconds(1))) == [.key(.character("q"))])
    }

    /// The reply corpus's every byte boundary, with the pieces a moment or most of a second apart.
    @Test func everyReplySplitAtEveryByteIsOneReply() {
        var cuts = 0
        for reply in ReplyCorpus.fixed {
            for cut in 1..<reply.count {
                // Right after the Esc or the introducer, the rest must come within the Esc delay.
                for gap: Duration in cut <= 2 ? [.zero, .milliseconds(20)] : [.zero, .milliseconds(900)] {
                    var decoder = InputDecoder()
                    var output = decoder.feed(Array("j".utf8), at: .zero)
                    output += decoder.feed(reply[..<cut], at: .seconds(1))
                    output += decoder.feed(reply[cut...], at: .seconds(1) + gap)
                    output += decoder.feed(Array("k".utf8), at: .seconds(3))
                    #expect(keys(output) == [.key(.character("j")), .key(.character("k"))], "\(TerminalReplies.escaped(reply)) cut at \(cut)")
                    #expect(output.contains(.reply(reply)), "\(TerminalReplies.escaped(reply)) cut at \(cut)")
                    cuts += 1
                }
            }
        }
        print("decoder: \(ReplyCorpus.fixed.count) replies split at every byte boundary, \(cuts) splits, 0 stray keys")
    }

    /// 40,000 seeded streams of typed keys, pastes and replies, split at random boundaries over a slow link:
    /// exactly the typed keys and pastes come out, in order.
    @Test func randomStreamsOfRepliesAndKeysGiveExactlyTheTypedKeys() {
        var random = SplitMix(seed: 27)
        var streams = 0, replies = 0, typed = 0, bytes = 0, mismatches = 0
        for _ in 0..<40_000 {
            var decoder = InputDecoder()
            var now = Duration.zero
            var expected: [TerminalInput] = []
            var output: [TerminalInput] = []
            for _ in 0..<random.next(in: 1...8) {
                now += .milliseconds(random.next(in: 30...400))
                let kind = random.next(in: 0...9)
                let item: [UInt8]
                let quick: Bool
                if kind < 5 {
                    let key = ReplyCorpus.typed[random.next(in: 0...(ReplyCorpus.typed.count - 1))]
                    item = key.bytes
                    expected.append(key.input)
                    typed += 1
                    quick = true
                } else if kind == 5 {
                    let text = ReplyCorpus.pasteText(&random)
                    item = Array("\u{1B}[200~".utf8) + text + Array("\u{1B}[201~".utf8)
                    expected.append(.paste(String(decoding: text, as: UTF8.self)))
                    typed += 1
                    quick = false
                } else {
                    item = ReplyCorpus.randomReply(&random)
                    replies += 1
                    quick = false
                }
                bytes += item.count
                // Split into pieces: a piece right after the Esc or the introducer follows within the Esc delay,
                // and a reply (one write of the terminal's) is whole within 0.9 s of its start; a paste's text
                // takes as long as it takes once its opening CSI is in.
                var start = 0
                let began = now
                while start < item.count {
                    let end = random.next(in: 0...2) == 0 ? item.count : min(item.count, start + random.next(in: 1...max(1, item.count - start)))
                    output += decoder.feed(item[start..<end], at: now)
                    start = end
                    let gap: Duration = end <= 2 || quick ? .milliseconds(random.next(in: 0...20)) : .milliseconds(random.next(in: 0...900))
                    now = kind == 5 && end >= 6 ? now + gap : min(now + gap, began + .milliseconds(900))
                }
            }
            output += decoder.expire(at: now + .seconds(5))
            if keys(output) != expected {
                mismatches += 1
                if mismatches <= 3 { Issue.record("stream \(streams): \(keys(output)) != \(expected)") }
            }
            streams += 1
        }
        #expect(mismatches == 0)
        print("decoder: \(streams) random streams, \(bytes) bytes, \(replies) replies, \(typed) typed keys and pastes, \(mismatches) mismatches")
    }

    /// Random bytes of any value never crash the decoder, and after a quiet second it reads keys again.
    @Test func randomBytesThenQuietThenKeys() {
        var random = SplitMix(seed: 31)
        for round in 0..<10_000 {
            var decoder = InputDecoder()
            let garbage = (0..<random.next(in: 0...200)).map { _ in UInt8(truncatingIfNeeded: random.next(in: 0...255)) }
            _ = decoder.feed(garbage, at: .zero)
            let output = decoder.feed(Array("q\u{1B}[A".utf8), at: .seconds(2))
            #expect(keys(output).suffix(2) == [.key(.character("q")), .key(.up)], "round \(round)")
        }
    }
}

/// Replies every kind of terminal sends, and keys as they arrive from a keyboard.
enum ReplyCorpus {
    static let fixed: [[UInt8]] = [
        "\u{1B}_Gi=31;OK\u{1B}\\", "\u{1B}_Gi=31;ENOTSUPPORTED:graphics not supported\u{1B}\\", "\u{1B}P>|XTerm(379)\u{1B}\\",
        "\u{1B}P>|kitty(0.26.5)\u{1B}\\", "\u{1B}P>|mlterm(3.9.3)\u{1B}\\", "\u{1B}P>|tmux 3.3a\u{1B}\\", "\u{1B}[?62;c",
        "\u{1B}[?63;1;2;4;6;9;15;16;22;28c", "\u{1B}[?64;1;2;4;6;9;15;18;21;22c", "\u{1B}[>41;379;0c", "\u{1B}[>1;4000;29c",
        "\u{1B}[?1;0;1024S", "\u{1B}[?2;0;800;680S", "\u{1B}[?1;3;0S", "\u{1B}[6;17;8t", "\u{1B}[4;1000;1600t",
        "\u{1B}[8;50;160t", "\u{1B}[12;40R", "\u{1B}[?12;40;1R", "\u{1B}[0n", "\u{1B}[?2004;1$y", "\u{1B}[?1u", "\u{1B}[I",
        "\u{1B}[O", "\u{1B}]11;rgb:1e1e/1e1e/2e2e\u{07}", "\u{1B}]10;rgb:ffff/ffff/ffff\u{1B}\\", "\u{1B}]4;1;rgb:cdcd/0000/0000\u{1B}\\",
        "\u{1B}]52;c;aGVsbG8=\u{07}", "\u{1B}P1$r0;1m\u{1B}\\", "\u{1B}P1+r544e=787465726d\u{1B}\\", "\u{1B}^privacy message\u{1B}\\",
        "\u{1B}Xstart of string\u{1B}\\", "\u{1B}]2;title with 東京 and ☃\u{07}",
    ].map { Array($0.utf8) }

    struct TypedKey {
        let bytes: [UInt8]
        let input: TerminalInput
    }

    static let typed: [TypedKey] = {
        var keys: [TypedKey] = []
        func add(_ text: String, _ input: TerminalInput) { keys.append(TypedKey(bytes: Array(text.utf8), input: input)) }
        for character in "abcijkpqtuvxyzABGPVX0123456789 /?[]_^O~\\" { add(String(character), .key(.character(character))) }
        for character in " /-+#" { add("\u{1B}" + String(character), .key(.alt(character))) }
        for (text, key) in [("\r", Key.enter), ("\t", .tab), ("\u{7F}", .backspace), ("\u{04}", .control("d")), ("\u{15}", .control("u")),
                            ("\u{1B}", .escape), ("\u{1B}[A", .up), ("\u{1B}OB", .down), ("\u{1B}[1;5C", .right), ("\u{1B}[D", .left),
                            ("\u{1B}[5~", .pageUp), ("\u{1B}[6~", .pageDown), ("\u{1B}[H", .home), ("\u{1B}OF", .end), ("\u{1B}[3~", .delete),
                            ("\u{1B}[Z", .backTab), ("\u{1B}OP", .function(1)), ("\u{1B}[17~", .function(6)), ("\u{1B}j", .alt("j")),
                            ("\u{1B}P", .alt("P")), ("\u{1B}[", .alt("[")), ("東", .character("東")), ("é", .character("é")), ("🏔", .character("🏔"))] {
            add(text, .key(key))
        }
        add("\u{1B}[<0;12;7M", .mouse(MouseEvent(.click, x: 11, y: 6)))
        add("\u{1B}[<65;1;1M", .mouse(MouseEvent(.wheelDown, x: 0, y: 0)))
        return keys
    }()

    /// A reply from the corpus, or one made up in its shapes: numbers, payloads of any length and bytes
    /// (controls and UTF-8 included, the terminators left out), BEL or ST.
    static func randomReply(_ random: inout SplitMix) -> [UInt8] {
        func number() -> String { String(random.next(in: 0...99_999)) }
        /// Bytes a string of its kind holds: printable ASCII and the format controls, and for OSC UTF-8 too.
        func payload(utf8: Bool = false) -> [UInt8] {
            var bytes: [UInt8] = []
            for _ in 0..<random.next(in: 0...120) {
                if utf8, random.next(in: 0...9) == 0 {
                    bytes += "東é☃".utf8
                } else {
                    bytes.append(UInt8(random.next(in: 0...15) == 0 ? random.next(in: 0x08...0x0D) : random.next(in: 0x20...0x7E)))
                }
            }
            return bytes
        }
        let end = random.next(in: 0...1) == 0 ? [0x07] : Array("\u{1B}\\".utf8)
        switch random.next(in: 0...7) {
        case 0: return fixed[random.next(in: 0...(fixed.count - 1))]
        case 1: return Array("\u{1B}_G".utf8) + payload() + Array("\u{1B}\\".utf8)
        case 2: return Array("\u{1B}P".utf8) + payload() + end
        case 3: return Array("\u{1B}]".utf8) + payload(utf8: true) + end
        case 4: return Array("\u{1B}[?\(number());\(number());\(number())c".utf8)
        case 5: return Array("\u{1B}[\(number());\(number())R".utf8)
        case 6: return Array("\u{1B}[?\(number());\(number());\(number())S".utf8)
        default: return Array("\u{1B}[\(number());\(number());\(number())t".utf8)
        }
    }

    /// Pasted text: anything but the end marker's Esc, so keys' sequences and controls too.
    static func pasteText(_ random: inout SplitMix) -> [UInt8] {
        let pieces = ["iiii", "1", "\u{1B}[A", "\r", "\n", "東京", "q", "\u{7F}", "\t", " ", "\u{1B}_Gi=31;OK\u{1B}\\"]
        return (0..<random.next(in: 0...12)).flatMap { _ in Array(pieces[random.next(in: 0...(pieces.count - 1))].utf8) }
    }
}

/// A seeded generator, so every run of the random tests is the same run.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`. By remainder, not `Int.random(in:using:)`: its generic path, unspecialised in a
    /// debug build, was most of the random streams' test; the bias of a remainder of 64 bits is nothing here.
    mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }
}
