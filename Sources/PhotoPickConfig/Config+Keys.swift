import PhotoPickSettings

/// One `[keys]` line: an action and the keys the file gives it.
struct KeyRebinding {
    let action: Action
    let keys: [Key]
    let entry: ConfigFile.Entry

    init(_ entry: ConfigFile.Entry, file: String) throws(ConfigError) {
        func fail(_ reason: String) -> ConfigError {
            ConfigError(file: file, line: entry.line, key: entry.dottedKey, reason: reason)
        }
        let name = entry.path[1]
        guard let action = Action(rawValue: name) else {
            throw fail("no action is called \"\(name)\"; the actions are listed in the README under Keys")
        }
        let names: [String]
        switch entry.value {
        case .string(let name): names = [name]
        case .array(let values):
            names = try values.map { value throws(ConfigError) -> String in
                guard case .string(let name) = value else { throw fail("expected key names as strings, found \(value.typeName)") }
                return name
            }
        default: throw fail("expected a key name or an array of them, found \(entry.value.typeName)")
        }
        keys = try names.map { name throws(ConfigError) -> Key in
            guard let key = Key(name: name) else {
                throw fail("\"\(name)\" is not a key; write keys like j, G, ctrl-d, pgdn, space, enter, esc or f2")
            }
            return key
        }
        self.action = action
        self.entry = entry
    }
}

extension Config {
    /// Rebound actions give up their old keys first, so two actions can swap keys; a key the file binds
    /// is taken from an action that has it only by default (as `p`, added in a later version). Only two
    /// bindings in the file can clash.
    mutating func apply(_ rebindings: [KeyRebinding], file: String) throws(ConfigError) {
        let rebound = Set(rebindings.map(\.action))
        for rebinding in rebindings {
            for key in keymap.bindings[rebinding.action, default: []] { keymap.unbind(key, in: rebinding.action.context) }
        }
        for rebinding in rebindings {
            for key in rebinding.keys {
                guard let holder = keymap.action(for: key, in: rebinding.action.context), !rebound.contains(holder) else { continue }
                keymap.unbind(key, in: rebinding.action.context)
                let left = keymap.keyNames(holder)
                warnings.append("\(file):\(rebinding.entry.line), key \(rebinding.entry.dottedKey): \(key.name) now does \(rebinding.action.rawValue) instead of \(holder.rawValue)" + (left.isEmpty ? ", which has no key left" : ""))
            }
        }
        for rebinding in rebindings {
            do {
                try keymap.rebind(rebinding.action, to: rebinding.keys)
            } catch {
                throw ConfigError(
                    file: file, line: rebinding.entry.line, key: rebinding.entry.dottedKey,
                    reason: "\(error.key.name) already does \(error.holder.rawValue); rebind \(error.holder.rawValue) too, or choose another key"
                )
            }
        }
        warnings += cullShadows(rebindings, file: file)
    }

    /// Cull mode's keys come first while it is on, so a key the file gives to both a cull action and a
    /// browsing one does the cull action there. The digits over the tag keys are that on purpose.
    private func cullShadows(_ rebindings: [KeyRebinding], file: String) -> [String] {
        rebindings.flatMap { rebinding in
            rebinding.keys.compactMap { key -> String? in
                guard let browsing = keymap.action(for: key, in: .browse), browsing.tagNumber == nil,
                      let culling = keymap.action(for: key, in: .cull)
                else { return nil }
                return "\(file):\(rebinding.entry.line), key \(rebinding.entry.dottedKey): in cull mode \(key.name) does \(culling.rawValue), not \(browsing.rawValue)"
            }
        }
    }
}
