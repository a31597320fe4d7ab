import Foundation

/// The variables of an environment file, in the syntax imgproxy documents for its env files
/// (and godotenv reads): `NAME=value` lines, `#` comments, an optional `export `, values bare,
/// 'single-quoted' (literal) or "double-quoted" (with `\n`, `\"` and `\\`, and over several
/// lines); bare and double-quoted values have `$NAME` and `${NAME}` replaced by the file's
/// earlier variables, else by `environment`'s.
enum EnvironmentFile {
    /// - Throws: ``ServerSettingError`` naming `source` and the line that does not parse.
    static func parse(_ text: String, source: String, environment: [String: String]) throws(ServerSettingError) -> [String: String] {
        var variables: [String: String] = [:]
        var rest = Substring(text)
        var line = 0
        func failure(_ reason: String) -> ServerSettingError { ServerSettingError(name: source, reason: "line \(line): \(reason)") }
        while !rest.isEmpty {
            line += 1
            var current = rest.prefix { $0 != "\n" }
            rest = rest.dropFirst(current.count).dropFirst()
            current = current.drop { $0 == " " || $0 == "\t" }
            if current.isEmpty || current.first == "#" || current.allSatisfy({ $0.isWhitespace }) { continue }
            if current.hasPrefix("export ") { current = current.dropFirst(7).drop { $0 == " " } }
            guard let equals = current.firstIndex(where: { $0 == "=" || $0 == ":" }) else { throw failure("not NAME=value") }
            let name = current[..<equals].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else { throw failure("'\(name)' is not a variable's name") }
            var value = current[current.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
            let lookup = { (name: String) in variables[name] ?? environment[name] ?? "" }
            switch value.first {
            case "'":
                guard let close = value.dropFirst().firstIndex(of: "'") else { throw failure("a single quote is not closed") }
                variables[name] = String(value[value.index(after: value.startIndex)..<close])
            case "\"":
                var text = ""
                var index = value.index(after: value.startIndex)
                while true {
                    if index == value.endIndex {  // the value goes on over the next line
                        guard !rest.isEmpty else { throw failure("a double quote is not closed") }
                        let next = rest.prefix { $0 != "\n" }
                        rest = rest.dropFirst(next.count).dropFirst()
                        line += 1
                        text.append("\n")
                        value = next
                        index = value.startIndex
                        continue
                    }
                    let character = value[index]
                    if character == "\"" { break }
                    if character == "\\", value.index(after: index) < value.endIndex {
                        index = value.index(after: index)
                        switch value[index] {
                        case "n": text.append("\n")
                        case "r": text.append("\r")
                        case "t": text.append("\t")
                        case let other: text.append(other)
                        }
                    } else {
                        text.append(character)
                    }
                    index = value.index(after: index)
                }
                variables[name] = substitute(text, lookup)
            default:
                if let comment = value.range(of: " #") { value = value[..<comment.lowerBound] }
                variables[name] = substitute(value.trimmingCharacters(in: .whitespaces), lookup)
            }
        }
        return variables
    }

    /// `text` with `$NAME` and `${NAME}` replaced by `lookup(NAME)`.
    static func substitute(_ text: String, _ lookup: (String) -> String) -> String {
        guard text.contains("$") else { return text }
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            guard character == "$", index < text.endIndex else {
                result.append(character)
                continue
            }
            if text[index] == "{", let close = text[index...].firstIndex(of: "}") {
                result += lookup(String(text[text.index(after: index)..<close]))
                index = text.index(after: close)
            } else {
                let name = text[index...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                if name.isEmpty { result.append(character); continue }
                result += lookup(String(name))
                index = name.endIndex
            }
        }
        return result
    }
}
