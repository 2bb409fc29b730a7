import Crypto
import Foundation

/// Signs and checks the expiring file URLs that `/photos/{id}/download` redirects to.
struct FileURLSigner: Sendable {
    enum Verdict: Equatable {
        case valid
        case expired
        case invalid
    }

    /// Raw key bytes: `SymmetricKey` is not Sendable.
    let secret: [UInt8]
    private var key: SymmetricKey { SymmetricKey(data: secret) }
    let lifetime: Duration

    /// `/files/{id}/{variant}?expires=...&signature=...`, valid for `lifetime` from `now`.
    func path(photoID: Int64, variant: ImageVariant, now: Int64) -> String {
        let expires = now + lifetime.components.seconds
        return "/files/\(photoID)/\(variant.rawValue)?expires=\(expires)&signature=\(signature(photoID, variant, expires))"
    }

    /// Checks the signature first, so a tampered expiry reads as invalid, not expired.
    func verify(photoID: Int64, variant: ImageVariant, expires: String?, signature: String?, now: Int64) -> Verdict {
        guard let expires, let expiry = Int64(expires), let signature,
              let mac = Data(hexadecimal: signature),
              HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: message(photoID, variant, expiry), using: key)
        else { return .invalid }
        return now >= expiry ? .expired : .valid
    }

    private func signature(_ photoID: Int64, _ variant: ImageVariant, _ expires: Int64) -> String {
        Array(HMAC<SHA256>.authenticationCode(for: message(photoID, variant, expires), using: key)).hexString
    }

    private func message(_ photoID: Int64, _ variant: ImageVariant, _ expires: Int64) -> Data {
        Data("\(photoID)/\(variant.rawValue)/\(expires)".utf8)
    }
}

extension Data {
    init?(hexadecimal text: String) {
        guard text.count % 2 == 0, text.allSatisfy(\.isHexDigit) else { return nil }
        self.init([UInt8](hex: text))
    }
}
