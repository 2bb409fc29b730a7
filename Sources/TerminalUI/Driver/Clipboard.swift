import CNcursesw
import ExtrasBase64
import Foundation

/// Copies text to the terminal's clipboard with OSC 52 (`ESC ] 52 ; c ; base64 BEL`), the way yazi and
/// neovim do: it works over SSH, where no local clipboard tool can reach the user's machine. Inside
/// tmux the sequence is sent as tmux's `set-clipboard` allows; where it cannot get through, the status
/// line says how to let it.
struct Clipboard: Sendable, Equatable {
    /// How the sequence reaches the terminal.
    enum Route: Sendable, Equatable {
        /// Written as it is: the terminal (or tmux with `set-clipboard on`) takes it.
        case direct
        /// Wrapped for tmux's passthrough, which hands it to the terminal outside.
        case tmuxPassthrough
        /// Nothing would arrive; the line says how to enable it.
        case refused(String)
    }

    let route: Route
    /// Said after a copy the terminal may still ignore: how to let it, when known.
    let caveat: String?

    /// The route for the terminal photopick runs in. `tmuxOption` reads a global tmux option (such as
    /// `set-clipboard`), nil when there is no tmux to ask.
    static func choose(environment: [String: String], tmuxOption: (String) -> String?) -> Clipboard {
        if environment["TMUX"] != nil {
            let setClipboard = tmuxOption("set-clipboard")
            if setClipboard == "on" { return Clipboard(route: .direct, caveat: nil) }
            if GraphicsChoice.Tmux.allowsPassthrough(tmuxOption("allow-passthrough")) {
                return Clipboard(route: .tmuxPassthrough, caveat: nil)
            }
            return Clipboard(route: .refused(
                "tmux blocks it (set-clipboard \(setClipboard ?? "off")); add “set -g set-clipboard on” to ~/.tmux.conf"
            ), caveat: nil)
        }
        if environment["STY"] != nil {
            return Clipboard(route: .refused("GNU screen does not pass clipboard writes on; run photopick in tmux or straight in the terminal to copy"), caveat: nil)
        }
        if environment["XTERM_VERSION"] != nil {
            // xterm's default disallowedWindowOps includes SetSelection, which drops OSC 52 silently.
            return Clipboard(route: .direct, caveat: "if nothing was copied, let xterm take it: “XTerm*disallowedWindowOps: 20,21,SetXprop” in ~/.Xresources")
        }
        return Clipboard(route: .direct, caveat: nil)
    }

    /// The bytes that copy `text`, or nil when refused.
    func sequence(_ text: String) -> [UInt8]? {
        let osc = Array("\u{1B}]52;c;".utf8) + Base64.encodeToBytes(bytes: Array(text.utf8)) + [0x07]
        switch route {
        case .direct: return osc
        case .tmuxPassthrough: return TmuxPassthrough.wrap(osc)
        case .refused: return nil
        }
    }
}

extension TerminalDriver {
    /// Writes a clipboard sequence after the frame's text, never inside an image unit.
    func writeClipboard(_ bytes: [UInt8]) {
        guard isActive, output == nil else { return }
        writeNow(bytes)
    }

    /// Gives the terminal to another program (the user's editor) while `body` runs, then takes it back;
    /// the next frame draws everything again.
    func handOver<Result>(_ body: () -> Result) -> Result {
        guard isActive, output == nil else { return body() }
        clearImages()
        disableReports()
        endwin()
        TerminalRescue.restore()
        let result = body()
        enableReports()
        followTerminalSize()
        repaintAll()
        return result
    }
}
