import Foundation

/// The parts of the state more than one feature writes: the photos, the status line's messages, the
/// ledger of sequences and undo steps that tag and field edits share, and the news each event leaves
/// for the parent. A feature gets it `inout` from the parent, beside a context of what it may read.
struct Shared: Sendable {
    /// Every photo loaded, with the changes the event under way made to them.
    var library = PhotoLibrary()
    /// The status line's messages.
    var messages = StatusMessages()
    /// Sequences and undo steps.
    var ledger = Ledger()
    /// What the event under way did that other features follow; the parent reads it and starts afresh.
    var news = News()

    /// Posts a message; information and warnings are scheduled to fade, errors stay.
    mutating func post(_ severity: StatusMessage.Severity, _ text: String, remedy: StatusMessage.Remedy? = nil) -> [BrowserEffect] {
        guard let message = messages.post(severity, text, remedy: remedy), severity != .error else { return [] }
        return [.expireMessage(id: message.id)]
    }
}

/// What one event did that features other than its own follow, told to the parent (TCA's delegate
/// actions): the parent passes it on, so no feature reaches into another.
struct News: Sendable, Equatable {
    /// The list was sorted, filtered or restacked: a visual range in progress ends.
    var listReshaped = false
    /// The cursor moved: a visual range in progress follows it.
    var cursorMoved = false
    /// The tag list changed (loaded, a tag made, renamed or deleted): a query naming tags is read again.
    var tagsChanged = false
    /// Photos photopick deleted from the server: their unsent edits have nothing left to change.
    var purged: [Int] = []
    /// The walk saw every page: what it confirmed for the walk's sake is forgotten.
    var walkFinished = false
    /// A mark to put on photos, decided outside the tags' room, and the line to post once it is on.
    var marking: Marking?

    /// A mark for the tags' room to put on photos.
    struct Marking: Sendable, Equatable {
        let mark: Mark
        let photos: [Int]
        let line: String
    }
}

/// Numbers and history that tag and field edits share: one sequence orders both outboxes (and, negated,
/// names tags not made yet), and one undo stack holds the presses of both, newest last.
struct Ledger: Sendable {
    /// The next sequence to give.
    private(set) var nextSequence: Int64 = 1
    /// One entry per key press, the last hundred at most.
    private(set) var undoStack: [UndoStep] = []

    /// Takes the next sequence.
    mutating func takeSequence() -> Int64 {
        defer { nextSequence += 1 }
        return nextSequence
    }

    /// Takes `count` sequences in a row, for a bulk (`TagBulk`); returns the first.
    mutating func takeSequences(_ count: Int) -> Int64 {
        defer { nextSequence += Int64(count) }
        return nextSequence
    }

    /// Starts at `sequence` at the least: the outbox's next one.
    mutating func start(at sequence: Int64) {
        nextSequence = max(nextSequence, sequence)
    }

    /// Keeps one key press's changes for undo.
    mutating func remember(_ step: UndoStep) {
        undoStack.append(step)
        if undoStack.count > 100 { undoStack.removeFirst() }
    }

    /// The last press's changes, taken off the stack.
    mutating func takeLastStep() -> UndoStep? {
        undoStack.popLast()
    }

    /// The last press, when its write failed: it leaves the stack if it is `isFailed`.
    mutating func dropLastStep(if isFailed: (UndoStep) -> Bool) {
        if let last = undoStack.last, isFailed(last) { undoStack.removeLast() }
    }

    /// Rewrites or drops every step (a tag made or deleted meanwhile).
    mutating func rewriteSteps(_ rewrite: (UndoStep) -> UndoStep?) {
        undoStack = undoStack.compactMap(rewrite)
    }
}
