/// The themes by name, as the config and `--help` name them.
public enum ThemeName: String, Sendable, CaseIterable {
    case dark, light, mono

    /// The config's theme, else light or dark by whether the terminal's background is light, dark when
    /// unknown.
    public static func chosen(config: ThemeName?, backgroundIsLight: Bool?) -> ThemeName {
        config ?? (backgroundIsLight == true ? .light : .dark)
    }
}
