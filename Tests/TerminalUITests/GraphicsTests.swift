import Foundation
import PhotoPreviews
@testable import PhotoBrowser
import PhotoImaging
import Testing
@testable import TerminalUI
import PhotoPickSettings

/// The bytes of the image protocols, tmux's wrapping, and reading the terminal's replies.
struct ImageProtocolTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func kittySendsPixelsIn4096ByteChunksMarkedMoreUntilTheLast() {
        let base64 = Array(Data((0..<7_000).map { UInt8($0 % 251) }).base64EncodedData())
        #expect(base64.count == 9_336)
        let commands = KittyCommands.transmit(id: 7, width: 50, height: 40, base64: base64)
        #expect(commands.count == 3)
        #expect(text(commands[0]).hasPrefix("\u{1B}_Ga=t,f=24,s=50,v=40,i=7,q=2,m=1;"))
        #expect(text(commands[1]).hasPrefix("\u{1B}_Gq=2,m=1;") && text(commands[2]).hasPrefix("\u{1B}_Gq=2,m=0;"))
        let payloads = commands.map { command -> [UInt8] in
            let start = command.firstIndex(of: UInt8(ascii: ";"))! + 1
            #expect(command.suffix(2) == [0x1B, UInt8(ascii: "\\")])
            return Array(command[start..<(command.count - 2)])
        }
        #expect(payloads.map(\.count) == [4096, 4096, 1144])
        #expect(payloads.flatMap { $0 } == base64)
        // A small image is one command, m=0.
        #expect(KittyCommands.transmit(id: 1, width: 1, height: 1, base64: Array("AAAA".utf8)).map(text) == ["\u{1B}_Ga=t,f=24,s=1,v=1,i=1,q=2,m=0;AAAA\u{1B}\\"])
    }

    @Test func everyKittyCommandIsQuietAndPlacementsMoveByTheirId() {
        #expect(text(KittyCommands.place(id: 9)) == "\u{1B}_Ga=p,i=9,p=1,C=1,q=2\u{1B}\\")
        #expect(text(KittyCommands.hide(id: 9)) == "\u{1B}_Ga=d,d=i,i=9,q=2\u{1B}\\")
        #expect(text(KittyCommands.free(id: 9)) == "\u{1B}_Ga=d,d=I,i=9,q=2\u{1B}\\")
        #expect(text(KittyCommands.freeAll) == "\u{1B}_Ga=d,d=A,q=2\u{1B}\\")
    }

    @Test func tmuxPassthroughDoublesEveryEscape() {
        let wrapped = TmuxPassthrough.wrap(Array("\u{1B}[c".utf8))
        #expect(text(wrapped) == "\u{1B}Ptmux;\u{1B}\u{1B}[c\u{1B}\\")
        let kitty = TmuxPassthrough.wrap(KittyCommands.place(id: 3))
        #expect(text(kitty) == "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=p,i=3,p=1,C=1,q=2\u{1B}\u{1B}\\\u{1B}\\")
    }

    @Test func itermInlineImagesCarryTheFileAndTheCellsItFills() {
        let bytes = ITermImage.inline(base64: Array("QUJD".utf8), columns: 20, rows: 6)
        #expect(text(bytes) == "\u{1B}]1337;File=inline=1;size=3;width=20;height=6;preserveAspectRatio=1;doNotMoveCursor=1:QUJD\u{1B}\\")
    }

    @Test func itermSendsARenditionFarLargerThanShownAtTheSizeShown() throws {
        func photo(_ width: Int, _ height: Int) -> PreviewImage {
            PreviewImage(width: width, height: height, pixels: (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 * 7) })
        }
        var graphics = Graphics.symbols(.direct)
        graphics.mode = .iterm
        graphics.cell = PixelSize(width: 10, height: 20)
        let renderer = PreviewRenderer(graphics: graphics)
        let shown = photo(40, 30), request = PreviewRequest(photoID: 1, box: PixelSize(width: 40, height: 30))
        func sent(_ source: [UInt8]) throws -> PixelSize? {
            let encoded = try #require(renderer.render(request, shown, source) as? EncodedImage)
            return jpegPixelSize(Array(try #require(Data(base64Encoded: Data(encoded.bytes)))))
        }
        let large = try #require(photo(400, 300).jpeg()), close = try #require(photo(50, 38).jpeg())
        #expect(try sent(large) == PixelSize(width: 40, height: 30), "a 400×300 rendition for 40×30 pixels goes at 40×30")
        #expect(try sent(close) == PixelSize(width: 50, height: 38), "one near the size shown goes as it came")
    }
}

struct KittyPlaceholderTests {
    @Test func aCellIsThePlaceholderWithItsRowColumnAndIdMarks() {
        #expect(KittyPlaceholders.diacritics.count == 297)
        #expect(KittyPlaceholders.diacritics.prefix(4) == [0x305, 0x30D, 0x30E, 0x310] && KittyPlaceholders.diacritics.last == 0x1D244)
        let id: UInt32 = 0x05_00_00_2A
        let cell = KittyPlaceholders.cell(row: 2, column: 7, id: id)
        #expect(cell.unicodeScalars.map(\.value) == [0x10EEEE, 0x30E, 0x33F, 0x33D])
        // One character wide on screen: the marks combine with the placeholder.
        #expect(DisplayWidth.of(cell) == 1 && cell.count == 1)
    }

    @Test func idsAreStableAndFitTheColoursThatCarryThem() {
        let box = PixelSize(width: 400, height: 600)
        let direct = KittyPlaceholders.id(photoID: 7, box: box, colors: .direct)
        #expect(direct == KittyPlaceholders.id(photoID: 7, box: box, colors: .direct))
        #expect(direct != KittyPlaceholders.id(photoID: 8, box: box, colors: .direct))
        #expect(direct & 0xFFFFFF >= 0x100)
        let indexed = KittyPlaceholders.id(photoID: 7, box: box, colors: .colors256)
        #expect(indexed & 0xFFFFFF >= 1 && indexed & 0xFFFFFF <= 255)
        #expect(KittyPlaceholders.color(of: indexed, colors: .colors256) == .palette(UInt8(indexed & 0xFF)))
        let low = direct & 0xFFFFFF
        #expect(KittyPlaceholders.color(of: direct, colors: .direct) == .rgb(UInt8(low >> 16), UInt8(low >> 8 & 0xFF), UInt8(low & 0xFF)))
    }

    @Test func insideTmuxTheImageIsSentOnceThroughPassthroughAndPlacedVirtually() {
        var layer = ImageLayer(mode: .kitty, inTmux: true, placeholders: .colors256)
        let placement = ImagePlacement(photoID: 3, box: PixelSize(width: 80, height: 60), rect: Rect(x: 4, y: 2, width: 10, height: 4),
                                       payload: EncodedImage(size: PixelSize(width: 80, height: 60), bytes: Array("AAAA".utf8)))
        let id = KittyPlaceholders.id(photoID: 3, box: placement.box, colors: .colors256)
        let first = String(decoding: layer.plan([placement], screenCleared: true, height: 30).bytes, as: UTF8.self)
        #expect(first == "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=T,f=24,s=80,v=60,i=\(id),q=2,m=0,U=1,c=10,r=4;AAAA\u{1B}\u{1B}\\\u{1B}\\")
        // Moving it is the cells' business: nothing is sent again, nothing is repainted; the log is told where it is.
        let moved = ImagePlacement(photoID: 3, box: placement.box, rect: Rect(x: 4, y: 9, width: 10, height: 4), payload: placement.payload)
        #expect(layer.plan([moved], screenCleared: false, height: 30) == ImageLayer.Plan(shownAgain: [moved]))
        #expect(layer.plan([moved], screenCleared: false, height: 30) == ImageLayer.Plan(), "where it was: nothing to say")
        #expect(layer.plan([], screenCleared: true, height: 30) == ImageLayer.Plan())
        #expect(layer.plan([moved], screenCleared: false, height: 30) == ImageLayer.Plan(shownAgain: [moved]), "back after the help: shown again")
    }

    @Test func loupeViewsWhoseIdsCollideAreSentAgainWhenShownAgain() throws {
        // 256 colours leave 16 bits of id: among a few thousand loupe views, two share one.
        let box = PixelSize(width: 80, height: 60), depth = Theme.Depth.colors256
        var seen: [UInt32: Int] = [:]
        var pair: (Int, Int)?
        for content in 1...100_000 where pair == nil {
            let id = KittyPlaceholders.id(photoID: 3, box: box, content: content, colors: depth)
            if let earlier = seen[id] { pair = (earlier, content) } else { seen[id] = content }
        }
        let (first, second) = try #require(pair)
        func view(_ content: Int) -> ImagePlacement {
            ImagePlacement(photoID: 3, box: box, content: content, rect: Rect(x: 0, y: 1, width: 10, height: 4),
                           payload: EncodedImage(size: box, bytes: Array("V\(content)".utf8)))
        }
        var layer = ImageLayer(mode: .kitty, inTmux: true, placeholders: depth)
        #expect(!layer.plan([view(first)], screenCleared: true, height: 30).bytes.isEmpty)
        #expect(!layer.plan([view(second)], screenCleared: false, height: 30).bytes.isEmpty, "the second view replaces the first under their id")
        let again = text(layer.plan([view(first)], screenCleared: false, height: 30).bytes)
        #expect(again.contains("V\(first)"), "panning back sends the first view again: the terminal no longer has it")
    }

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}

struct TerminalRepliesTests {
    private func parse(_ text: String) -> TerminalReplies { TerminalReplies.parse(Array(text.utf8)) }

    @Test func xtermAsVT340AnswersEveryQuery() {
        let replies = parse("\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?1;0;1024S\u{1B}[?2;0;800;680S\u{1B}[6;17;8t\u{1B}[?63;1;2;4;6;9;15;16;22;28c")
        #expect(replies.version == "XTerm(379)" && !replies.kittyGraphics)
        #expect(replies.sixelRegisters == 1024 && replies.sixelLimit == PixelSize(width: 800, height: 680))
        #expect(replies.cell == PixelSize(width: 8, height: 17))
        #expect(replies.isComplete && replies.sixel)
        var decoder = InputDecoder()
        #expect(decoder.feed(replies.received, at: .zero).allSatisfy { if case .reply = $0 { true } else { false } })
        #expect(replies.transcript.count == 5 && replies.transcript[0] == "\\eP>|XTerm(379)\\e\\")
    }

    @Test func kittyAnswersTheGraphicsQueryAndRefusesXTSMGraphics() {
        let replies = parse("\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?1;3;0S\u{1B}[?2;3;0S\u{1B}[6;17;8t\u{1B}[?62;c")
        #expect(replies.kittyGraphics && !replies.sixel && replies.sixelRegisters == nil && replies.sixelLimit == nil)
        #expect(replies.deviceAttributes == [62])
        let refused = parse("\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\\u{1B}[?1c")
        #expect(!refused.kittyGraphics && refused.kittyError == "ENOTSUPPORTED:no")
    }

    @Test func kittyOnThisMachineReadsSharedMemoryAndOverSSHCannot() {
        let local = parse("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=32;OK\u{1B}\\\u{1B}[?62;c")
        #expect(local.kittyGraphics && local.kittySharedMemory)
        let remote = parse("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=32;ENOENT:Failed to open shared memory\u{1B}\\\u{1B}[?62;c")
        #expect(remote.kittyGraphics && !remote.kittySharedMemory && remote.kittyError == nil, "the failed read is no error of kitty's")
        let chosen = GraphicsChoice(requested: .auto, environment: ["TERM": "xterm-kitty"], replies: local, kernelCell: PixelSize(width: 8, height: 17),
                                    tmux: nil, terminfo: .init(colors: 256, rgb: false, known: []))
        #expect(chosen.graphics.kittySharedMemory)
        let elsewhere = GraphicsChoice(requested: .auto, environment: ["TERM": "xterm-kitty"], replies: remote, kernelCell: PixelSize(width: 8, height: 17),
                                       tmux: nil, terminfo: .init(colors: 256, rgb: false, known: []))
        #expect(!elsewhere.graphics.kittySharedMemory && elsewhere.graphics.mode == .kitty)
    }

    @Test func keysTypedDuringTheProbeAreKeptInOrderAndGarbageIsDropped() {
        let replies = parse("j\u{1B}[Bk\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}OAq\u{1B}]11;junk\u{07}\u{1B}[?63;4c")
        var decoder = InputDecoder()
        let keys = decoder.feed(replies.received, at: .zero).compactMap { input -> Key? in if case .key(let key) = input { key } else { nil } }
        #expect(keys == [.character("j"), .down, .character("k"), .up, .character("q")])
        #expect(replies.version == "XTerm(379)" && replies.isComplete)
    }

    @Test func anUnfinishedOrHostileReplyIsNeitherReadNorTyped() {
        // Cut off in the middle of DA1: nothing complete, nothing typed.
        let cut = parse("\u{1B}[?63;1;2")
        #expect(!cut.isComplete && cut.transcript.isEmpty)
        // A version with escapes in it is shown sanitised; absurd cell sizes are ignored.
        let hostile = parse("\u{1B}P>|evil\u{1B}[2J\u{1B}\\\u{1B}[6;0;99999t\u{1B}[?1c")
        // An ESC inside a string other than its ST ends it unfinished: no version is read from it.
        #expect(hostile.version == nil)
        #expect(hostile.cell == nil && hostile.isComplete)
        // Random bytes never crash the reader.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let alphabet: [UInt8] = [0x1B, 0x5B, 0x50, 0x5F, 0x5C, 0x3F, 0x3B, 0x63, 0x07, 0x41]
            let bytes: [UInt8] = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            _ = TerminalReplies.parse(bytes)
        }
    }
}

struct GraphicsChoiceTests {
    private static let installed: Set<String> = ["xterm-direct256", "xterm-direct", "xterm-256color", "mlterm-direct", "mlterm-256color", "tmux-direct"]

    private func choose(_ requested: GraphicsMode = .auto, env: [String: String], replies: String?, cell: PixelSize? = PixelSize(width: 8, height: 17),
                        tmux: GraphicsChoice.Tmux? = nil, colors: Int = 8, rgb: Bool = false) -> Graphics {
        GraphicsChoice(requested: requested, environment: env, replies: replies.map { TerminalReplies.parse(Array($0.utf8)) }, kernelCell: cell,
                       tmux: tmux, terminfo: .init(colors: colors, rgb: rgb, known: Self.installed)).graphics
    }

    static let xterm = "\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?1;0;1024S\u{1B}[?2;0;800;680S\u{1B}[6;17;8t\u{1B}[?63;1;2;4;6c"
    static let kitty = "\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;17;8t\u{1B}[?62;c"

    @Test func xtermAsTERMxtermGetsSixelAnd24BitColourThroughXtermDirect256() {
        let graphics = choose(env: ["TERM": "xterm"], replies: Self.xterm)
        #expect(graphics.mode == .sixel && graphics.depth == .direct && graphics.cursesTerm == "xterm-direct256")
        #expect(graphics.sixelLimit == PixelSize(width: 800, height: 680) && graphics.reason.contains("sixel"))
    }

    @Test func kittyGetsItsProtocolAndMltermItsInlineImages() {
        #expect(choose(env: ["TERM": "xterm-kitty"], replies: Self.kitty, colors: 256, rgb: true).mode == .kitty)
        let mlterm = choose(env: ["TERM": "mlterm", "MLTERM": "3.9.0"], replies: "\u{1B}[?1;0;1024S\u{1B}[6;19;10t\u{1B}[?63;4c")
        #expect(mlterm.mode == .iterm && mlterm.cursesTerm == "mlterm-direct" && mlterm.depth == .direct)
        #expect(choose(env: ["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"], replies: "\u{1B}[?65;4c", colors: 256).mode == .iterm)
    }

    @Test func aTerminalThatAnswersNothingOrOnlyDA1GetsSymbols() {
        let silent = choose(env: ["TERM": "xterm-256color"], replies: "", colors: 256)
        #expect(silent.mode == .symbols && silent.reason.contains("did not answer") && silent.depth == .colors256 && silent.cursesTerm == nil)
        #expect(choose(env: ["TERM": "xterm-256color"], replies: nil, colors: 256).mode == .symbols)
        let plain = choose(env: ["TERM": "xterm-256color", "COLORTERM": "truecolor"], replies: "\u{1B}[?64;1;2c", colors: 256)
        #expect(plain.mode == .symbols && plain.depth == .direct && plain.cursesTerm == "xterm-direct256")
        // Sixel needs the cell size to place pixels.
        #expect(choose(env: ["TERM": "xterm"], replies: "\u{1B}[?63;4c", cell: nil).mode == .symbols)
    }

    @Test func insideTmuxOnlyWhatTmuxKeepsInPlace() {
        let on = choose(env: ["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0"], replies: Self.kitty, tmux: .init(passthrough: true), colors: 256)
        #expect(on.mode == .symbols && on.inTmux && on.reason.contains("tmux"))
        // kitty 0.28 and later outside: its Unicode placeholders, cells that tmux moves like text.
        let newer = Self.kitty.replacingOccurrences(of: "0.26.5", with: "0.31.0")
        let placeholders = choose(env: ["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0"], replies: newer, tmux: .init(passthrough: true), colors: 256)
        #expect(placeholders.mode == .kitty && placeholders.kittyPlaceholders && placeholders.reason.contains("placeholders"))
        // Outside tmux kitty places images directly.
        #expect(!choose(env: ["TERM": "xterm-kitty"], replies: newer, colors: 256).kittyPlaceholders)
        #expect(GraphicsChoice.hasPlaceholders("kitty(0.28.0)") && !GraphicsChoice.hasPlaceholders("kitty(0.27.1)") && GraphicsChoice.hasPlaceholders("ghostty 1.0"))
        let off = choose(env: ["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0"], replies: nil, tmux: .init(passthrough: false), colors: 256)
        #expect(off.mode == .symbols && off.reason.contains("allow-passthrough"))
    }

    private static let inTmux = ["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0"]
    /// tmux 3.5a as `display -p` describes it in xterm 398, with what it passes on.
    private static func tmux35(passthrough: Bool = false, features: String = "256,RGB,sixel,title", drawsSixel: Bool = true) -> GraphicsChoice.Tmux {
        TerminalProbe.parseTmuxDescription("\(passthrough ? "on" : "off")\t3.5a\t\(features)\txterm\tXTerm(398)").map {
            var tmux = $0.tmux
            tmux.drawsSixel = drawsSixel
            return tmux
        }!
    }

    @Test func tmuxThatDrawsSixelAndKnowsTheTerminalDoesGetsSixelUnwrappedWithoutPassthrough() {
        let graphics = choose(env: Self.inTmux, replies: nil, tmux: Self.tmux35(), colors: 256)
        #expect(graphics.mode == .sixel && graphics.inTmux && graphics.reason.contains("tmux 3.5a draws sixel itself"))
        #expect(graphics.advice == nil)
        // Through the passthrough too: the terminal outside is asked, and tmux still draws.
        let through = choose(env: Self.inTmux, replies: Self.xterm, tmux: Self.tmux35(passthrough: true), colors: 256)
        #expect(through.mode == .sixel)
        // tmux built without sixel (its DA1 lacks 4), or not knowing the terminal outside shows it: symbols.
        #expect(choose(env: Self.inTmux, replies: nil, tmux: Self.tmux35(drawsSixel: false), colors: 256).mode == .symbols)
        let unknowing = choose(env: Self.inTmux, replies: Self.xterm, tmux: Self.tmux35(passthrough: true, features: "256,RGB"), colors: 256)
        #expect(unknowing.mode == .symbols && unknowing.reason.contains("does not know"))
        #expect(unknowing.advice?.contains("set -as terminal-features ',xterm*:sixel'") == true)
        // No pixel size for the pane (tmux's client did not tell it): tmux would draw a box of text.
        #expect(choose(env: Self.inTmux, replies: nil, cell: nil, tmux: Self.tmux35(), colors: 256).mode == .symbols)
        // Asked for symbols, symbols; kitty's placeholders first where the terminal outside has them.
        #expect(choose(.symbols, env: Self.inTmux, replies: nil, tmux: Self.tmux35(), colors: 256).mode == .symbols)
        let kitty = Self.kitty.replacingOccurrences(of: "0.26.5", with: "0.41.1")
        #expect(choose(env: Self.inTmux, replies: kitty, tmux: Self.tmux35(passthrough: true, features: "256,RGB"), colors: 256).kittyPlaceholders)
    }

    @Test func insideTmuxColourIsWhatTmuxPassesAndTheLineToPassMoreIsSaidOnce() {
        let installed = GraphicsChoice.Terminfo(colors: 256, rgb: false, known: ["tmux-direct"])
        func depth(_ tmux: GraphicsChoice.Tmux, env: [String: String] = Self.inTmux, known: GraphicsChoice.Terminfo = installed) -> Graphics {
            GraphicsChoice(requested: .auto, environment: env, replies: nil, kernelCell: PixelSize(width: 8, height: 17), tmux: tmux, terminfo: known).graphics
        }
        let passes = depth(Self.tmux35())
        #expect(passes.depth == .direct && passes.cursesTerm == "tmux-direct" && passes.advice == nil)
        // tmux without RGB, the terminal outside xterm 398: 256 colours, and the line for ~/.tmux.conf.
        let narrow = depth(Self.tmux35(features: "256,sixel"))
        #expect(narrow.depth == .colors256 && narrow.cursesTerm == nil)
        #expect(narrow.advice == "For 24-bit colour in tmux, add set -as terminal-features ',xterm*:RGB' to ~/.tmux.conf")
        #expect(narrow.advice!.count + 12 <= 100, "the line fits a status line of 100 columns beside the position")
        // Even with COLORTERM=truecolor inherited from the terminal tmux started in: tmux decides.
        #expect(depth(Self.tmux35(features: "256"), env: Self.inTmux.merging(["COLORTERM": "truecolor"]) { $1 }).depth == .colors256)
        // A terminal outside that shows 256 colours only: nothing to say.
        var plain = Self.tmux35(features: "256")
        plain.outerType = "VT420"
        plain.outerTerm = "screen-256color"
        #expect(depth(plain).advice == nil)
        // TERM outside not xterm's: the line names it.
        var kitty = Self.tmux35(features: "256")
        kitty.outerTerm = "xterm-kitty"
        kitty.outerType = "kitty(0.41.1)"
        #expect(depth(kitty).advice?.contains("',xterm*:RGB'") == true)
        kitty.outerTerm = "foot"
        kitty.outerType = "foot(1.20)"
        #expect(depth(kitty).advice?.contains("',foot:RGB'") == true)
        // tmux passes 24-bit, but no terminfo entry lets ncurses send it.
        let missing = depth(Self.tmux35(), known: .init(colors: 256, rgb: false, known: []))
        #expect(missing.depth == .colors256 && missing.advice?.contains("ncurses-term") == true)
        // tmux older than 3.2 says nothing of its features: the environment decides, as before.
        let old = GraphicsChoice.Tmux(passthrough: false)
        #expect(depth(old, env: Self.inTmux.merging(["COLORTERM": "truecolor"]) { $1 }).depth == .direct)
    }

    @Test func insideTmuxASixelImageFillsWholeCellsWithItsOwnEdgePixels() {
        // 3×2 pixels, cells of 2×4: grown to 4×4, the last column and row repeated.
        let image = PreviewImage(width: 3, height: 2, pixels: [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6])
        let grown = PreviewRenderer.extended(image, toWholeCells: PixelSize(width: 2, height: 4))
        #expect(grown.width == 4 && grown.height == 4)
        let rows = (0..<4).map { row in (0..<4).map { Int(grown.pixels[(row * 4 + $0) * 3]) } }
        #expect(rows == [[1, 2, 3, 3], [4, 5, 6, 6], [4, 5, 6, 6], [4, 5, 6, 6]])
        #expect(PreviewRenderer.extended(grown, toWholeCells: PixelSize(width: 2, height: 4)).pixels == grown.pixels, "whole already")
        // The box is whole cells inside tmux (no trim to six rows), so a loupe's view needs no growing.
        var graphics = Graphics.symbols(.direct)
        graphics.mode = .sixel
        graphics.cell = PixelSize(width: 8, height: 17)
        graphics.inTmux = true
        #expect(PreviewRenderer(graphics: graphics).box(for: Rect(x: 0, y: 0, width: 95, height: 26)) == PixelSize(width: 760, height: 442))
        graphics.inTmux = false
        #expect(PreviewRenderer(graphics: graphics).box(for: Rect(x: 0, y: 0, width: 95, height: 26)) == PixelSize(width: 760, height: 438))
    }

    @Test func tmuxDescribesItselfInOneLineAndOnlyVersionsFrom34MayDrawSixel() {
        let described = TerminalProbe.parseTmuxDescription("off\t3.5a\t256,RGB,sixel\txterm-256color\t")
        #expect(described?.passthrough == "off" && described?.tmux.passthrough == false && described?.tmux.version == "3.5a")
        #expect(described?.tmux.features == ["256", "RGB", "sixel"] && described?.tmux.outerTerm == "xterm-256color" && described?.tmux.outerType == nil)
        // tmux 3.3a prints a flag as 1 or 0.
        #expect(TerminalProbe.parseTmuxDescription("1\t3.3a\t\t\t")?.tmux.passthrough == true)
        #expect(TerminalProbe.parseTmuxDescription("1\t3.3a\t\t\t")?.tmux.features == [])
        #expect(TerminalProbe.parseTmuxDescription("garbage") == nil)
        #expect(TerminalProbe.mayDrawSixel("3.4") && TerminalProbe.mayDrawSixel("3.5a") && TerminalProbe.mayDrawSixel("next-3.6"))
        #expect(!TerminalProbe.mayDrawSixel("3.3a") && !TerminalProbe.mayDrawSixel("2.9") && !TerminalProbe.mayDrawSixel(nil))
    }

    @Test func aModeAskedForIsKeptAndAssumesACellWhenNoneIsKnown() {
        let forced = choose(.kitty, env: ["TERM": "xterm-256color"], replies: nil, cell: nil, colors: 256)
        #expect(forced.mode == .kitty && forced.cell == PixelSize(width: 8, height: 16) && forced.reason.contains("assumed"))
        #expect(choose(.symbols, env: ["TERM": "xterm"], replies: Self.xterm).mode == .symbols)
        #expect(choose(env: ["TERM": "linux"], replies: Self.xterm).mode == .symbols)
    }

    @Test func coloursComeFromTheFactsNotTerminfoAlone() {
        #expect(choose(env: ["TERM": "xterm"], replies: "\u{1B}[?1c").depth == .colors8)
        #expect(choose(env: ["TERM": "xterm", "COLORTERM": "24bit"], replies: "\u{1B}[?1c").depth == .direct)
        #expect(choose(env: ["TERM": "vt100"], replies: "\u{1B}[?1c", colors: 0).depth == .monochrome)
    }
}

struct ImageLayerTests {
    private func placement(_ photo: Int, _ rect: Rect, bytes: String = "SIXEL") -> ImagePlacement {
        ImagePlacement(photoID: photo, box: PixelSize(width: 80, height: 60), rect: rect,
                       payload: EncodedImage(size: PixelSize(width: 80, height: 60), bytes: Array(bytes.utf8)))
    }
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func sixelImagesAreWrittenOnceAndTheirCellsRepaintedWhenTheyGo() {
        var layer = ImageLayer(mode: .sixel)
        let a = placement(1, Rect(x: 2, y: 3, width: 10, height: 4)), b = placement(2, Rect(x: 20, y: 3, width: 10, height: 4))
        let first = layer.plan([a, b], screenCleared: true, height: 30)
        // One unit per image, each saving and restoring the cursor, so a frame's text may go between them.
        #expect(text(first.bytes) == "\u{1B}7\u{1B}[4;3HSIXEL\u{1B}8\u{1B}7\u{1B}[4;21HSIXEL\u{1B}8" && first.repaint.isEmpty)
        #expect(first.jobs.map(\.units.count) == [1, 1] && first.jobs.map(\.image) == [ImageLayer.Key(a), ImageLayer.Key(b)])
        // The same frame again costs nothing.
        #expect(layer.plan([a, b], screenCleared: false, height: 30) == ImageLayer.Plan())
        // `j`: photo 1 goes, photo 3 comes; photo 2 stays where it was.
        let c = placement(3, Rect(x: 2, y: 3, width: 8, height: 4))
        let next = layer.plan([c, b], screenCleared: false, height: 30)
        #expect(next.repaint == [a.rect] && text(next.bytes) == "\u{1B}7\u{1B}[4;3HSIXEL\u{1B}8")
        // An overlay covers them all: every rectangle is repainted and nothing written.
        let help = layer.plan([], screenCleared: false, height: 30)
        #expect(Set(help.repaint.map { "\($0)" }) == Set([b.rect, c.rect].map { "\($0)" }) && help.bytes.isEmpty)
        // After a resize the terminal was cleared: everything shown is written again.
        #expect(layer.plan([b], screenCleared: true, height: 30).placed == [b])
    }

    @Test func kittyImagesAreSentOnceAndThenOnlyPlacedHiddenOrFreed() {
        var layer = ImageLayer(mode: .kitty, kittyByteLimit: 80 * 60 * 3 * 2)
        let a = placement(1, Rect(x: 2, y: 3, width: 10, height: 4), bytes: "AAAA")
        let first = text(layer.plan([a], screenCleared: true, height: 30).bytes)
        // The transmission does not move the cursor; only the placement saves and restores it.
        #expect(first == "\u{1B}_Ga=t,f=24,s=80,v=60,i=1,q=2,m=0;AAAA\u{1B}\\\u{1B}7\u{1B}[4;3H\u{1B}_Ga=p,i=1,p=1,C=1,q=2\u{1B}\\\u{1B}8")
        #expect(text(layer.plan([], screenCleared: false, height: 30).bytes) == "\u{1B}_Ga=d,d=i,i=1,q=2\u{1B}\\")
        // Shown again, lower: placed, not sent.
        let moved = placement(1, Rect(x: 2, y: 9, width: 10, height: 4), bytes: "AAAA")
        #expect(text(layer.plan([moved], screenCleared: false, height: 30).bytes) == "\u{1B}7\u{1B}[10;3H\u{1B}_Ga=p,i=1,p=1,C=1,q=2\u{1B}\\\u{1B}8")
        // Two more photos pass the limit: the one longest off screen is freed.
        _ = layer.plan([placement(2, a.rect, bytes: "BBBB")], screenCleared: false, height: 30)
        let third = text(layer.plan([placement(3, a.rect, bytes: "CCCC")], screenCleared: false, height: 30).bytes)
        #expect(third.contains("a=d,d=I,i=1,q=2") && !third.contains("i=3,q=2\u{1B}\\\u{1B}_Ga=d,d=I,i=3"))
        #expect(text(layer.clearAll()) == "\u{1B}_Ga=d,d=A,q=2\u{1B}\\")
    }

    @Test func noImageReachesTheLastRowAndSymbolsWriteNothing() {
        var sixel = ImageLayer(mode: .sixel)
        #expect(sixel.plan([placement(1, Rect(x: 0, y: 20, width: 5, height: 10))], screenCleared: true, height: 30).bytes.isEmpty)
        var symbols = ImageLayer(mode: .symbols)
        #expect(symbols.plan([placement(1, Rect(x: 0, y: 0, width: 5, height: 5))], screenCleared: true, height: 30) == ImageLayer.Plan())
    }
}

/// libchafa's sixel read back by ImageMagick and compared with the pixels it was made from.
struct SixelReadbackTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/convert")))
    func imageMagickReadsOurSixelAsTheSourceImage() throws {
        let width = 120, height = 96
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { pixels += [UInt8(x * 2), UInt8(y * 2), UInt8((x + y) % 256)] }
        }
        let image = PreviewImage(width: width, height: height, pixels: pixels)
        let sixel = ChafaCanvas.sixel(image, registers: 256)
        #expect(sixel.starts(with: [0x1B, UInt8(ascii: "P")]) && sixel.suffix(2) == [0x1B, UInt8(ascii: "\\")])
        let folder = FileManager.default.temporaryDirectory.appending(path: "sixel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(sixel).write(to: folder.appending(path: "a.six"))
        // Through PNG: ImageMagick 6 writes raw RGB of a sixel image as zeros when asked directly.
        for (from, to) in [("a.six", "a.png"), ("a.png", "rgb:" + folder.appending(path: "a.rgb").path)] {
            let convert = Process()
            convert.executableURL = URL(fileURLWithPath: "/usr/bin/convert")
            convert.arguments = [folder.appending(path: from).path, "-depth", "8", to.hasPrefix("rgb:") ? to : folder.appending(path: to).path]
            try convert.run()
            convert.waitUntilExit()
            #expect(convert.terminationStatus == 0)
        }
        let back = [UInt8](try Data(contentsOf: folder.appending(path: "a.rgb")))
        #expect(back.count == width * height * 3, "ImageMagick read \(back.count) bytes")
        guard back.count == pixels.count else { return }
        var squared = 0.0
        for (a, b) in zip(back, pixels) { squared += (Double(a) - Double(b)) * (Double(a) - Double(b)) }
        let rmse = (squared / Double(pixels.count)).squareRoot() / 255
        #expect(rmse < 0.04, "RMSE \(rmse)")
    }
}
