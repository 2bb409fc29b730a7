import Foundation

/// A rendition fetched whole into memory, such as the `web` JPEG a preview is drawn from.
public struct FetchedVariant: Sendable {
    /// The file's bytes.
    public let bytes: [UInt8]
    /// The file's strong validator, when the server sent one.
    public let etag: String?

    /// A rendition from its bytes and ETag.
    public init(bytes: [UInt8], etag: String?) {
        self.bytes = bytes
        self.etag = etag
    }
}

extension APIClient {

    /// Fetches a rendition of a photo, as JPEG, into memory: through the pacer, retries and the rule that
    /// the key never leaves the API's origin, like every other call. Renditions are small (`web` is 1024
    /// pixels on the long edge); answers over 32 MB are refused.
    public nonisolated func fetchVariant(photoID: Int, size: DownloadSize) async throws(APIError) -> FetchedVariant {
        let location = API.downloadLocation(id: photoID, size: size, format: .jpeg)
        var endpoint = Request<RawResponse>(location.method, location.path, query: location.query) { $0 }
        endpoint.headers = [("Accept", "*/*")]
        var refreshes = 0
        while true {
            var response = try await perform(endpoint)
            var redirects = 0
            do throws(APIError) {
                while (300..<400).contains(response.status) {
                    redirects += 1
                    guard redirects <= FileDownload.maximumRedirects else {
                        throw APIError.decoding(DecodingFailure(
                            path: "Location", reason: "a \(response.status) redirect without a usable Location header",
                            requestID: response.requestID
                        ))
                    }
                    response = try await perform(Request<RawResponse>(get: try response.redirectTarget()))
                }
            } catch .response(let error) where error.isExpiredLink && refreshes < FileDownload.maximumRefreshes {
                refreshes += 1
                continue
            }
            return FetchedVariant(bytes: Array(response.body.readableBytesView), etag: response.headers.first(name: "ETag"))
        }
    }
}
