import Foundation
import Osprey

extension ServerSettings {
    /// Who may ask: keys, salts, signatures, the secret, presets and the base URL.
    static let signing: [ServerSetting] = [
        ServerSetting("key", imgproxy: ["IMGPROXY_KEY"], .list("HEX"), "A signing key in hex; give as many as --salt, in pairs, while keys rotate.",
                      imgproxyDefault: { input in
                          // imgproxy checks no signature without keys: every URL is served.
                          input.service.allowsUnsigned = true
                          input.notices.append("no IMGPROXY_KEY and IMGPROXY_SALT: signatures are not checked, as imgproxy does not check them")
                      }, apply: readKeys),
        ServerSetting("salt", imgproxy: ["IMGPROXY_SALT"], .list("HEX"), "A signing salt in hex, paired with the --key of the same position.") {
            (input) throws(ServerSettingError) in if input.other("key") == nil { try readKeys(&input) }
        },
        ServerSetting("signature-size", imgproxy: ["IMGPROXY_SIGNATURE_SIZE"], .value("BYTES"), "Bytes of the signature's HMAC that URLs carry, 1…32.",
                      default: { "\($0.service.signingKeys.signatureSize)" }) {
            (input) throws(ServerSettingError) in
            let size = try input.int(1...32)
            guard input.other("key") == nil, input.other("salt") == nil else { return }
            do { input.service.signingKeys = try input.service.signingKeys.withSignatureSize(size) }
            catch { throw input.failure("\(error)") }
        },
        ServerSetting("allow-unsigned", .toggle, "Accept URLs with `insecure` or `_` in place of a signature (only without --key).") {
            (input) throws(ServerSettingError) in if try input.bool() { input.service.allowsUnsigned = true }
        },
        ServerSetting("trusted-signature", osprey: "TRUSTED_SIGNATURES", imgproxy: ["IMGPROXY_TRUSTED_SIGNATURES"], .list("SIGNATURE"),
                      "A signature accepted whatever the path (URLs made before a key was set, say); repeat for more.") {
            (input) throws(ServerSettingError) in input.service.trustedSignatures = Set(input.list())
        },
        ServerSetting("secret", imgproxy: ["IMGPROXY_SECRET"], .value("SECRET"), "Requests must carry Authorization: Bearer SECRET.") {
            (input) throws(ServerSettingError) in input.service.secret = input.text
        },
        ServerSetting("base-url", imgproxy: ["IMGPROXY_BASE_URL"], .value("URL"), "Prepended to every source URL that does not start with it.") {
            (input) throws(ServerSettingError) in input.service.baseURL = input.text
        },
        ServerSetting("url-replacement", imgproxy: ["IMGPROXY_URL_REPLACEMENTS"], .list("PATTERN=REPLACEMENT"),
                      "A source prefix rewritten before the base URL and the allow-list (* matches all but /, ${N} the Nth *); repeat, or ; between them.") {
            (input) throws(ServerSettingError) in
            var replacements: [ImgproxyURLRules.Replacement] = []
            for item in input.list(separator: ";") {
                guard let pairs = ImgproxyURLRules.replacements(item), !pairs.isEmpty else { throw input.failure("\(item) is not pattern=replacement") }
                replacements += pairs
            }
            input.service.urlRules.replacements = replacements
        },
        ServerSetting("arguments-separator", imgproxy: ["IMGPROXY_ARGUMENTS_SEPARATOR"], .value("TEXT"),
                      "What separates an option's name and arguments in URLs.", default: { $0.service.urlRules.argumentsSeparator }) {
            (input) throws(ServerSettingError) in
            guard !input.text.isEmpty, !input.text.contains("/") else { throw input.failure("give a separator that is not empty and not /") }
            input.service.urlRules.argumentsSeparator = input.text
        },
        ServerSetting("base64-url-includes-filename", imgproxy: ["IMGPROXY_BASE64_URL_INCLUDES_FILENAME"], .toggle,
                      "A base64 source may be followed by /file-name.ext, which is dropped.") {
            (input) throws(ServerSettingError) in input.service.urlRules.base64IncludesFilename = try input.bool()
        },
        ServerSetting("allowed-processing-option", imgproxy: ["IMGPROXY_ALLOWED_PROCESSING_OPTIONS"], .list("NAME"),
                      "An option name URLs may use, as written (rs and resize are two); repeat for more. Others: 404 Invalid URL.",
                      default: { $0.service.urlRules.allowedOptions.isEmpty ? "all" : nil }) {
            (input) throws(ServerSettingError) in input.service.urlRules.allowedOptions = Set(input.list())
        },
        ServerSetting("preset", imgproxy: ["IMGPROXY_PRESETS"], .list("NAME=OPTIONS"),
                      "A preset, as in a URL (thumb=rs:fill:64:64/q:70); repeat for more. `default` applies to every URL.", apply: readPresets),
        ServerSetting("presets-separator", imgproxy: ["IMGPROXY_PRESETS_SEPARATOR"], .value("TEXT"),
                      "What separates the presets of one variable.", default: { _ in "," }) { _ in },
        ServerSetting("presets-file", imgproxy: ["IMGPROXY_PRESETS_PATH"], .value("FILE"), "A file of presets, one NAME=OPTIONS a line (# starts a comment).") {
            (input) throws(ServerSettingError) in if input.other("preset") == nil { try readPresets(&input) }
        },
        ServerSetting("only-presets", imgproxy: ["IMGPROXY_ONLY_PRESETS"], .toggle, "URLs name presets only: /{signature}/{preset:preset…}/{source}.") {
            (input) throws(ServerSettingError) in input.service.onlyPresets = try input.bool()
        },
        ServerSetting("info-preset", imgproxy: ["IMGPROXY_INFO_PRESETS"], .list("NAME=OPTIONS"),
                      "An /info preset, as in an /info URL (default=xmp:0/bh:4:3); repeat for more. `default` applies to every /info URL.",
                      apply: readInfoPresets),
        ServerSetting("info-presets-file", imgproxy: ["IMGPROXY_INFO_PRESETS_PATH"], .value("FILE"),
                      "A file of /info presets, one NAME=OPTIONS a line (# starts a comment).") {
            (input) throws(ServerSettingError) in if input.other("info-preset") == nil { try readInfoPresets(&input) }
        },
        ServerSetting("info-only-presets", imgproxy: ["IMGPROXY_INFO_ONLY_PRESETS"], .toggle,
                      "/info URLs name presets only: /info/{signature}/{preset:preset…}/{source}.", default: { _ in "as --only-presets" }) {
            (input) throws(ServerSettingError) in input.service.infoOnlyPresets = try input.bool()
        },
        ServerSetting("allowed-info-option", imgproxy: ["IMGPROXY_ALLOWED_INFO_OPTIONS"], .list("NAME"),
                      "An info option name /info URLs may use, as written; repeat for more. Others: 404 Invalid URL.",
                      default: { $0.service.allowedInfoOptions.isEmpty ? "all" : nil }) {
            (input) throws(ServerSettingError) in input.service.allowedInfoOptions = Set(input.list())
        },
    ]

    /// Keys and salts, read together with the signature's size where the same source gives it.
    @Sendable static func readKeys(_ input: inout SettingInput) throws(ServerSettingError) {
        let keys = input.list(of: "key"), salts = input.list(of: "salt")
        var size = input.service.signingKeys.signatureSize
        if let text = input.other("signature-size")?.last, let given = Int(text), (1...32).contains(given) { size = given }
        do {
            input.service.signingKeys = try SigningKeys(hexKeys: keys, hexSalts: salts, signatureSize: size)
        } catch {
            throw input.failure(error.description)
        }
        if !keys.isEmpty { input.service.allowsUnsigned = false }
    }

    /// The presets of this source's list and of its file, one a line.
    @Sendable static func readPresets(_ input: inout SettingInput) throws(ServerSettingError) {
        guard let definitions = try presetDefinitions(&input, list: "preset", file: "presets-file") else { return }
        do {
            input.service.presets = try ImgproxyPresets(definitions: definitions)
        } catch {
            throw input.failure(error.description)
        }
    }

    /// The /info presets of this source's list and of its file, one a line.
    @Sendable static func readInfoPresets(_ input: inout SettingInput) throws(ServerSettingError) {
        guard let definitions = try presetDefinitions(&input, list: "info-preset", file: "info-presets-file") else { return }
        do {
            input.service.infoPresets = try ImgproxyPresets(definitions: definitions, of: ImgproxyInfoRequest.Options.self)
        } catch {
            throw input.failure(error.description)
        }
    }

    /// The definitions of the setting `list` (at the presets' separator) and of the file
    /// setting `file`; `nil` when there are none.
    private static func presetDefinitions(_ input: inout SettingInput, list: String, file: String) throws(ServerSettingError) -> [String]? {
        var definitions = input.list(of: list, separator: input.other("presets-separator")?.last ?? ",")
        if let path = input.other(file)?.last {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw input.failure("\(path) cannot be read") }
            definitions += text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        }
        return definitions.isEmpty ? nil : definitions
    }
}
