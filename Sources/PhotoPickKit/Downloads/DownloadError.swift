import Foundation
import PhotoPickFormats

/// Why a download did not finish. A partial file is kept whenever resuming it later can help.
public enum DownloadError: UserFacingError, Sendable, Equatable {
    /// The bytes did not match the server's `Repr-Digest`; the partial file was deleted.
    case digestMismatch(filename: String)
    /// The file's length differs from what the server announced; the partial file was deleted.
    case lengthMismatch(filename: String, expected: Int64, actual: Int64)
    /// Not enough free space to start.
    case insufficientSpace(directory: String, needed: Int64, available: Int64)
    /// The disk filled up while writing; the `.part` file is kept for resuming.
    case diskFull(path: String)
    /// The file system refused an operation.
    case fileSystem(path: String, reason: String)
    /// The server kept answering in a way a download cannot use.
    case unusableResponse(String)
    /// A file photopick did not write sits where its partial file goes; it is left as it is.
    case inTheWay(path: String)

    /// One line that says what went wrong and what to do.
    public var userMessage: String {
        switch self {
        case .digestMismatch(let filename):
            "\(filename.oneLine) arrived corrupted (its SHA-256 does not match the server's); it was deleted, download it again."
        case .lengthMismatch(let filename, let expected, let actual):
            "\(filename.oneLine) arrived with \(actual) bytes instead of \(expected); it was deleted, download it again."
        case .insufficientSpace(let directory, let needed, let available):
            "Not enough space in \(directory.oneLine): \(Figures.bytes(needed)) needed, \(Figures.bytes(available)) free; free some space or choose another folder."
        case .diskFull(let path):
            "The disk filled up while writing \(path.oneLine); free some space and resume, the partial file is kept."
        case .fileSystem(let path, let reason):
            "Cannot write \(path.oneLine): \(reason.oneLine); check the folder's permissions or choose another."
        case .unusableResponse(let reason):
            "The download failed: \(reason.oneLine); try again later."
        case .inTheWay(let path):
            "\(path.oneLine) is in the way: photopick did not write it and leaves it alone; move it elsewhere and try again."
        }
    }
}
