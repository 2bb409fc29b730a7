@testable import PhotoBrowser
import PhotoPickKit
import Testing
@testable import TerminalUI

/// Keys in the grid and in the full-screen preview.
struct GridControllerTests {
    typealias Harness = ControllerTests.Harness

    @Test func tabSwitchesToTheGridWhereMovementIsTwoDimensional() throws {
        var harness = Harness()
        harness.press(.tab)
        #expect(harness.controller.ui.mode == .grid)
        let grid = try #require(harness.layout.grid)
        #expect(grid.columns == 5 && harness.state.list.pageHeight == 15)
        harness.press(.character("j"))
        #expect(harness.state.list.cursor == 5)
        harness.press(.character("l"), .right)
        #expect(harness.state.list.cursor == 7)
        harness.press(.character("h"))
        #expect(harness.state.list.cursor == 6)
        harness.press(.character("k"), .character("k"))
        #expect(harness.state.list.cursor == 1, "up stops at the first row")
        harness.press(.character("G"), .character("j"))
        #expect(harness.state.list.cursor == 39, "down stops at the last row")
        harness.press(.character("k"))
        #expect(harness.state.list.cursor == 34)
        harness.press(.tab)
        #expect(harness.controller.ui.mode == .list && harness.layout.grid == nil && harness.state.list.pageHeight == 37)
        harness.press(.character("j"))
        #expect(harness.state.list.cursor == 35)
    }

    @Test func downFromAboveAShortLastRowLandsOnTheLastPhoto() {
        var harness = Harness()
        harness.press(.tab, .character("/"))
        harness.type("IMG_00")
        harness.press(.enter)
        // 32 photos in rows of five: the last row holds positions 30 and 31.
        #expect(harness.state.list.count == 32)
        harness.press(.character("j"), .character("j"), .character("j"), .character("j"), .character("j"))
        harness.press(.character("l"), .character("l"), .character("l"), .character("l"))
        #expect(harness.state.list.cursor == 29)
        harness.press(.character("j"))
        #expect(harness.state.list.cursor == 31)
        harness.press(.character("l"))
        #expect(harness.state.list.cursor == 31)
    }

    @Test func selectionVisualRangeTaggingAndDownloadWorkInTheGridAsInTheList() {
        var harness = Harness()
        harness.press(.tab, .character(" "), .character(" "))
        #expect(harness.state.selection.count == 2 && harness.state.list.cursor == 2)
        harness.press(.character("v"), .character("j"), .character("v"))
        #expect(harness.state.selection.count == 8)
        harness.press(.character("1"))
        #expect(harness.state.unsentTagDeltas > 0)
        let outcome = harness.controller.handle(.key(.character("d")), state: harness.state, layout: harness.layout)
        guard outcome.events.count == 1, case .downloads(.downloadRequested) = outcome.events[0] else {
            Issue.record("d should request the download, not \(outcome.events)")
            return
        }
        harness.press(.escape)
        #expect(harness.state.selection.isEmpty)
    }

    @Test func pOpensTheFullScreenPreviewWhereJAndKStepAndEscReturns() {
        var harness = Harness()
        harness.press(.tab, .character("p"))
        #expect(harness.controller.ui.fullPreview && harness.controller.ui.mode == .grid)
        harness.press(.character("j"), .character("j"), .down)
        #expect(harness.state.list.cursor == 3, "one photo at a time, not a row")
        harness.press(.character("k"))
        #expect(harness.state.list.cursor == 2 && harness.controller.ui.travel == -1)
        harness.press(.character("2"))
        #expect(harness.state.currentPhoto?.tagIDs.contains(2) == true)
        harness.press(.character(" "))
        #expect(harness.state.selection.count == 1 && harness.state.list.cursor == 3)
        harness.press(.escape)
        #expect(!harness.controller.ui.fullPreview && harness.controller.ui.mode == .grid)
        #expect(harness.state.selection.count == 1, "esc left the preview; it did not clear the selection")
        harness.press(.character("p"), .character("p"))
        #expect(!harness.controller.ui.fullPreview)
        harness.press(.character("p"), .character("t"))
        #expect(harness.controller.ui.overlay == .picker(UIState.Picker(kind: .tags)))
    }

    @Test func clicksPickTilesTheMarkSelectsAndTheWheelMovesRows() throws {
        var harness = Harness()
        harness.press(.tab)
        let grid = try #require(harness.layout.grid)
        let tile = grid.tile(row: 1, column: 3)
        harness.send(.mouse(MouseEvent(.click, x: tile.x + 4, y: tile.y + 2)))
        #expect(harness.state.list.cursor == 8 && harness.state.selection.isEmpty)
        harness.send(.mouse(MouseEvent(.click, x: tile.x + 1, y: tile.y + 1 + grid.thumbnailRows)))
        #expect(harness.state.list.cursor == 8 && harness.state.selection.count == 1)
        harness.send(.mouse(MouseEvent(.wheelDown, x: 10, y: 10)))
        #expect(harness.state.list.cursor == 13 && harness.controller.ui.travel == 1)
        harness.send(.mouse(MouseEvent(.wheelUp, x: 10, y: 10)))
        #expect(harness.state.list.cursor == 8 && harness.controller.ui.travel == -1)
        // The scroll bar jumps, as in the list: its last row is the last photos.
        let bar = harness.layout.scrollBar
        harness.send(.mouse(MouseEvent(.click, x: bar.x, y: bar.maxY - 1)))
        #expect(harness.state.list.cursor >= 38)
    }

    @Test func escInTheFullScreenPreviewUndoesAVisualRangeBeforeLeaving() {
        var harness = Harness()
        harness.press(.character("p"), .character("v"), .character("j"), .character("j"))
        #expect(harness.state.visualPositions != nil)
        harness.press(.escape)
        #expect(harness.state.visualPositions == nil && harness.controller.ui.fullPreview)
        harness.press(.character("G"))
        #expect(harness.state.list.cursor == 39)
        harness.press(.escape)
        #expect(!harness.controller.ui.fullPreview)
    }
}
