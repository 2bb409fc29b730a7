import Foundation
@testable import PhotoBrowser
import PhotoPickKit
import Testing
@testable import TerminalUI

/// Every view at 120×40, 80×24 and 40×12, in colour and monochrome, asserted on the canvas text.
@Suite struct ViewTests {
    static let cases = Fixture.sizes.flatMap { size in Fixture.depths.map { (size.0, size.1, $0) } }

    @Test(arguments: cases)
    func theBrowserShowsHeaderRowsAndStatusAtEverySize(width: Int, height: Int, depth: Theme.Depth) throws {
        let (canvas, layout) = Fixture.render(Fixture.state(), width: width, height: height, depth: depth)
        let lines = canvas.lines
        #expect(lines[0].hasPrefix(" photopick · Demo"))
        #expect(lines[0].contains("40 photos"))
        if width >= 120 { #expect(lines[0].contains("Demo library: set PHOTOPICK_API_KEY to browse your own")) }
        #expect(lines[1].contains("Name"))
        // Rows in capture order, the hostile name shown with visible placeholders.
        #expect(lines[2].contains("R0001.JPG"))
        #expect(lines[3].contains("東京タワー夜景"))
        #expect(lines[5].contains(width >= 120 ? "␛[31mRED␛[0m alert.jpg" : "␛[31mRED␛[0m a"))
        #expect(lines[height - 1].hasSuffix("1/40"))
        #expect(layout.listRows.height == height - 3)
        #expect((layout.sidePane != nil) == (width >= 80))
        // Wide and emoji names keep the size column lined up.
        if layout.columns.size {
            let sizeColumns = (2...9).map { column(of: "MB", in: canvas, row: $0) }
            #expect(Set(sizeColumns).count == 1, "\(sizeColumns)")
        }
        #expect(layout.columns.date == (width >= 80))
        if layout.columns.date { #expect(lines[2].contains("2020-09-14")) }
        // A scroll bar, since 40 photos do not fit.
        #expect(canvas.contains("█"))
    }

    @Test(arguments: cases)
    func theCurrentRowAndTheSelectionShowInColourAndInMonochrome(width: Int, height: Int, depth: Theme.Depth) throws {
        var state = Fixture.state()
        _ = state.apply(.selection(.selectionToggledAndAdvanced))
        _ = state.apply(.selection(.selectionToggledAndAdvanced))
        let (canvas, _) = Fixture.render(state, width: width, height: height, depth: depth)
        #expect(canvas.lines[0].contains(width >= 80 ? "2 selected (2.8 MB)" : "2 selec…"))
        let mark = depth == .monochrome ? "*" : "✓"
        #expect(canvas[1, 2].text == mark && canvas[1, 3].text == mark && canvas[1, 4].text == " ")
        #expect(canvas[1, 2].style.attributes.contains(.bold))
        let current = canvas[6, 4].style
        if depth == .monochrome {
            #expect(current.attributes.contains(.reverse))
            #expect(!canvas[6, 5].style.attributes.contains(.reverse))
        } else {
            #expect(current.background != .terminalDefault)
            #expect(canvas[6, 5].style.background == .terminalDefault)
        }
        #expect(canvas.lines[height - 1].hasSuffix("3/40"))
    }

    @Test(arguments: Fixture.depths)
    func tagChipsUseTheTagColourOrInitialsInMonochrome(depth: Theme.Depth) {
        let (canvas, _) = Fixture.render(Fixture.state(), width: 120, height: 40, depth: depth)
        // Photo 2 has Favourite and Portfolio.
        if depth == .monochrome {
            #expect(canvas.lines[3].hasPrefix("   FP "))
        } else {
            #expect(canvas[3, 3].text == "●" && canvas[4, 3].text == "●")
            #expect(canvas[3, 3].style.foreground == .palette(Theme.nearest256(TagColor(hex: "#e94b60")!)))
            #expect(canvas[4, 3].style.foreground == .palette(Theme.nearest256(TagColor(hex: "#3b82f6")!)))
        }
    }

    @Test(arguments: [(120, 40), (80, 24)])
    func theSidePaneShowsTheCurrentPhotosMetadata(width: Int, height: Int) throws {
        var state = Fixture.state()
        _ = state.apply(.browsing(.cursorMoved(.down)))
        let (canvas, layout) = Fixture.render(state, width: width, height: height)
        let pane = try #require(layout.sidePane)
        let text = (0..<height).map { y in (pane.x..<width).map { canvas[$0, y].text }.joined() }.joined(separator: "\n")
        #expect(text.contains("東京タワー夜景.jpg"))
        #expect(text.contains("4,000 × 3,000"))
        #expect(text.contains("Camera"))
        #expect(text.contains("FUJIFILM X-T4"))
        #expect(text.contains("Favourite"))
        #expect(text.contains("Portfolio"))
    }

    @Test(arguments: [(39, 10), (40, 9), (20, 5), (1, 1), (0, 0)])
    func belowTheMinimumOnlyAMessageShows(width: Int, height: Int) {
        let (canvas, layout) = Fixture.render(Fixture.state(), width: width, height: height)
        #expect(layout.tooSmall)
        if height >= 4 && width >= 20 { #expect(canvas.contains("Make the window")) }
        #expect(!canvas.contains("R0001"))
    }

    @Test(arguments: cases)
    func helpListsTheLiveKeyMap(width: Int, height: Int, depth: Theme.Depth) {
        var ui = UIState()
        ui.overlay = .help(scroll: 0)
        let (canvas, _) = Fixture.render(Fixture.state(), ui: ui, width: width, height: height, depth: depth)
        #expect(canvas.contains("Keys"))
        #expect(canvas.contains("j, down"))
        #expect(canvas.contains("move down"))
        let screen = Screen(context: Fixture.context(depth))
        #expect(HelpView.helpLines(for: screen.context.keymap).contains { $0.keys == "ctrl-d" && $0.summary == "half a page down" })
        #expect(HelpView.helpLines(for: screen.context.keymap).contains { $0.keys == "q, ctrl-c" && $0.summary == "quit" })
    }

    @Test(arguments: cases)
    func theTagPickerMarksWhatTheSelectionHasAndOffersToCreate(width: Int, height: Int, depth: Theme.Depth) {
        var state = Fixture.state()
        _ = state.apply(.selection(.selectionToggledAndAdvanced))
        _ = state.apply(.selection(.selectionToggledAndAdvanced))
        var ui = UIState()
        var picker = UIState.Picker(kind: .tags)
        ui.overlay = .picker(picker)
        var (canvas, _) = Fixture.render(state, ui: ui, width: width, height: height, depth: depth)
        #expect(canvas.contains("Tag 2 photos"))
        #expect(canvas.contains("[x]"))
        #expect(canvas.contains("[-]"))
        #expect(canvas.contains("Favourite"))
        for character in "Kyoto" { _ = picker.query.edit(.character(character)) }
        ui.overlay = .picker(picker)
        (canvas, _) = Fixture.render(state, ui: ui, width: width, height: height, depth: depth)
        #expect(canvas.contains("> Kyoto"))
        #expect(canvas.contains("Create tag “Kyoto”"))
        #expect(!canvas.contains("Favourite"))
    }

    @Test(arguments: cases)
    func theQueueStripAndPanelShowEachDownload(width: Int, height: Int, depth: Theme.Depth) {
        var state = Fixture.state()
        _ = Fixture.queueEverything(&state)
        var (canvas, layout) = Fixture.render(state, width: width, height: height, depth: depth)
        let strip = canvas.lines[height - 2]
        #expect(layout.strip != nil)
        #expect(strip.contains("4 running · 36 queued"))
        if width >= 80 { #expect(strip.contains("0%")) }
        var ui = UIState()
        ui.overlay = .queue(cursor: 0)
        (canvas, _) = Fixture.render(state, ui: ui, width: width, height: height, depth: depth)
        #expect(canvas.contains("Downloads · 4 at once"))
        #expect(canvas.contains("R0001.JPG"))
        if width >= 80 { #expect(canvas.contains("0 B/1.2 MB")) }
        #expect(canvas.contains(depth == .monochrome ? "> R0001.JPG" : "↓ R0001.JPG"))
    }

    @Test(arguments: cases)
    func quittingWithWorkLeftAsksAndSaysItResumes(width: Int, height: Int, depth: Theme.Depth) {
        var state = Fixture.state()
        _ = state.apply(.tags(.tagNumberPressed(3)))
        var ui = UIState()
        ui.overlay = .confirmQuit
        let (canvas, _) = Fixture.render(state, ui: ui, width: width, height: height, depth: depth)
        #expect(canvas.contains("Quit?"))
        #expect(canvas.text.replacingOccurrences(of: "\n", with: " ").contains("1 tag edit is not sent yet"))
        #expect(canvas.contains("y quit · n stay"))
    }

    @Test(arguments: cases)
    func theFilterIsTypedOnTheStatusLineAndShownInTheHeader(width: Int, height: Int, depth: Theme.Depth) {
        var state = Fixture.state()
        _ = state.apply(.browsing(.filterTextChanged("img")))
        var ui = UIState()
        ui.filterField = TextField("img")
        let (canvas, _) = Fixture.render(state, ui: ui, width: width, height: height, depth: depth)
        #expect(canvas.lines[height - 1].hasPrefix("/img"))
        #expect(canvas.lines[2].contains("IMG_0005.jpg"))
        if width >= 80 { #expect(canvas.lines[0].contains("32 shown")) }
    }

    @Test(arguments: cases)
    func anErrorStaysOnTheStatusLine(width: Int, height: Int, depth: Theme.Depth) {
        var state = Fixture.state()
        _ = state.apply(.tags(.tagOperationFailed("Conflict: a tag with this name exists")))
        let (canvas, _) = Fixture.render(state, width: width, height: height, depth: depth)
        #expect(canvas.lines[height - 1].hasPrefix(" Conflict:"))
        // The message ends before the position, with a space between them.
        #expect(canvas.lines[height - 1].hasSuffix(" 1/40"))
        #expect(!canvas.lines[height - 1].hasSuffix("…1/40"))
        let style = canvas[1, height - 1].style
        #expect(depth == .monochrome ? style.attributes.contains(.reverse) : style.background == .palette(124))
    }

    @Test func theDetailsViewShowsEveryRow() {
        var ui = UIState()
        ui.overlay = .details(scroll: 0)
        let (canvas, _) = Fixture.render(Fixture.state(), ui: ui, width: 80, height: 24)
        for label in ["File", "Dimensions", "Size", "Taken", "Camera", "Lens", "Tags", "ID"] {
            #expect(canvas.contains(label), "\(label)")
        }
        #expect(canvas.contains("XF23mmF1.4 R"))
    }

    @Test func anAccountKeyShowsItsNameInsteadOfDemo() {
        let (canvas, _) = Fixture.render(Fixture.state(), width: 120, height: 40, demo: false)
        #expect(canvas.lines[0].hasPrefix(" photopick · PhotoPick · 40 photos"))
        #expect(!canvas.contains("Demo"))
    }

    /// The display column where `text` starts in a row.
    private func column(of text: String, in canvas: Canvas, row: Int) -> Int? {
        let line = canvas.text(row: row)
        guard let range = line.range(of: text) else { return nil }
        return DisplayWidth.of(line[..<range.lowerBound])
    }
}

/// The views are values drawn one at a time: each draws alone what the whole screen shows in its area.
@Suite struct ViewTypeTests {
    @Test func eachViewDrawnAloneGivesTheCellsTheScreenShowsInItsArea() {
        for (width, height) in Fixture.sizes {
            var state = Fixture.state()
            _ = state.apply(.selection(.selectionToggled))
            let context = Fixture.context(.colors256)
            let (screen, layout) = Fixture.render(state, width: width, height: height)
            var views: [(String, Rect, any View)] = [
                ("header", layout.header, HeaderView(context: context, state: state, rect: layout.header)),
                ("status", layout.status, StatusLineView(context: context, state: state, ui: UIState(), layout: layout)),
            ]
            if let pane = layout.sidePane { views.append(("side pane", pane, SidePaneView(context: context, state: state, rect: pane))) }
            for (name, area, view) in views {
                var alone = Canvas(width: width, height: height)
                view.draw(in: &alone)
                for y in area.y..<area.maxY {
                    for x in area.x..<area.maxX {
                        #expect(alone[x, y] == screen[x, y], "\(name) at \(width)×\(height), cell \(x),\(y)")
                    }
                }
                // Nothing outside its area.
                let inArea = { (x: Int, y: Int) in x >= area.x && x < area.maxX && y >= area.y && y < area.maxY }
                let outside = (0..<height).flatMap { y in (0..<width).map { (x: $0, y: y) } }.filter { !inArea($0.x, $0.y) }
                #expect(outside.allSatisfy { alone[$0.x, $0.y] == Canvas(width: 1, height: 1)[0, 0] }, "\(name) stays in its area")
            }
        }
    }
}

/// The help box takes the width its lines need, up to the screen's, and wraps what does not fit.
@Suite struct HelpBoxTests {
    @Test(arguments: [(160, 50), (120, 40), (80, 24), (40, 12)])
    func theHelpIsNeverCut(width: Int, height: Int) {
        let lines = HelpView.helpLines(for: .standard)
        let page = HelpView.page(lines, in: Rect(x: 0, y: 0, width: width, height: height))
        if width >= 120 { #expect(page.width > 64 && page.rows.count == lines.count, "room for every line on one row") }
        #expect(page.width <= width)
        // Every character of every line is on some row, in order: nothing was cut.
        let shown = page.rows.map { $0.keys + $0.text }.joined().filter { $0 != " " }
        let wanted = lines.map { $0.keys + $0.summary }.joined().filter { $0 != " " }
        #expect(shown == wanted)
        for row in page.rows { #expect(row.textX + DisplayWidth.of(row.text) <= page.width - 2, "\(row)") }
    }

    @Test func aScrolledHelpReachesItsLastRowOnASmallScreen() {
        var controller = Controller()
        let state = Fixture.state()
        let screen = Screen(context: Fixture.context(.colors256))
        let layout = screen.layout(width: 40, height: 12, state: state, mode: .list)
        _ = controller.handle(.key(.character("?")), state: state, layout: layout)
        for _ in 0..<400 { _ = controller.handle(.key(.character("j")), state: state, layout: layout) }
        let frame = screen.frame(state, controller.ui, width: 40, height: 12)
        #expect(frame.canvas.contains("mouse") && frame.canvas.contains("selects"), "\(frame.canvas.lines.joined(separator: "\n"))")
    }
}
