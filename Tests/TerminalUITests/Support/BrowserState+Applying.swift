import PhotoBrowser
import PhotoPickKit

extension BrowserState {
    /// Applies an event at the test epoch: the views' tests draw one moment, not the wall clock's.
    @discardableResult
    mutating func apply(_ event: BrowserEvent) -> [BrowserEffect] {
        apply(event, at: Timekeeper.testEpoch)
    }

    /// Applies a report at the test epoch, as the session's effects would send it.
    @discardableResult
    mutating func apply(_ report: BrowserReport) -> [BrowserEffect] {
        apply(report, at: Timekeeper.testEpoch)
    }
}

extension PhotoLibrary {
    /// The photo at a library index, whole: what a test reads of it.
    subscript(index: Int) -> Photo { photo(at: index) }
}
