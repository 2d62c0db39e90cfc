import Foundation
import Testing
import FilterEngine
@testable import FilterExplorer

/// The README and docs/ stay true: the README stays short, its links lead somewhere, every `cifiltertest` command
/// line they show is one the program accepts, and the explorer's keys they list are the ones its help lists.
@Suite struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The pages whose code blocks and links are checked: the README, docs/, and the contributors' guide.
    static func pages() throws -> [URL] {
        let docs = root.appendingPathComponent("docs")
        let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        return [root.appendingPathComponent("README.md"), root.appendingPathComponent("CONTRIBUTING.md"),
                root.appendingPathComponent("CHANGELOG.md")] + pages.map { docs.appendingPathComponent($0) }
    }

    static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    @Test func readmeIsShort() throws {
        let size = try Data(contentsOf: Self.root.appendingPathComponent("README.md")).count
        #expect(size < 12_000, "README.md is \(size) bytes: keep it a front door, move the rest into docs/")
    }

    // MARK: Links

    @Test func linksLeadToFilesAndHeadings() throws {
        let pages = try Self.pages()
        let readme = try Self.text(pages[0])
        #expect(Self.links(in: readme).filter { $0.hasPrefix("docs/") }.count >= 9, "the README links into docs/")
        var checked = 0
        for page in pages {
            for link in Self.links(in: try Self.text(page)) where !link.contains("://") && !link.hasPrefix("mailto:") {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? page : page.deletingLastPathComponent().appendingPathComponent(parts[0]).standardized
                guard FileManager.default.fileExists(atPath: target.path) else {
                    Issue.record("\(page.lastPathComponent): the link \(link) leads to no file")
                    continue
                }
                if parts.count == 2, target.pathExtension == "md" {
                    let anchors = Set(try Self.text(target).split(separator: "\n").filter { $0.hasPrefix("#") }.map { Self.anchor(String($0)) })
                    #expect(anchors.contains(parts[1]), "\(page.lastPathComponent): \(link): no such heading in \(target.lastPathComponent)")
                }
                checked += 1
            }
        }
        #expect(checked >= 20)
    }

    /// Markdown link targets, `[text](target)`, outside code.
    static func links(in text: String) -> [String] {
        let prose = codeBlocks(in: text, invert: true).joined(separator: "\n")
        let pattern = try! NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        let range = NSRange(prose.startIndex..., in: prose)
        return pattern.matches(in: prose, range: range).compactMap { Range($0.range(at: 1), in: prose).map { String(prose[$0]) } }
    }

    /// A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces made hyphens.
    static func anchor(_ heading: String) -> String {
        let title = heading.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
        return String(title.unicodeScalars.compactMap { scalar -> Character? in
            if scalar == " " { return "-" }
            if scalar == "-" || scalar == "_" || CharacterSet.alphanumerics.contains(scalar) { return Character(scalar) }
            return nil
        })
    }

    @Test func anchorsAreGitHubs() {
        #expect(Self.anchor("## Beyond one machine: shards") == "beyond-one-machine-shards")
        #expect(Self.anchor("## `stream`") == "stream")
        #expect(Self.anchor("### GNU parallel over ssh") == "gnu-parallel-over-ssh")
    }

    // MARK: Command lines

    /// The lines inside fenced code blocks (or, inverted, the lines outside them); blocks marked `text` (screen
    /// captures) are left out when `skippingText`.
    static func codeBlocks(in text: String, invert: Bool = false, skippingText: Bool = false) -> [String] {
        var inside = false, skipped = false
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                inside.toggle()
                skipped = inside && skippingText && trimmed.dropFirst(3) == "text"
                continue
            }
            if inside != invert, !skipped { lines.append(String(line)) }
        }
        return lines
    }

    /// Every `cifiltertest …` command in the code blocks of `text`, as the words a shell would pass it: `\`
    /// continuations joined, comments dropped, up to the end of its pipeline stage, a redirection or `:::`.
    static func commands(in text: String) -> [[String]] {
        var logical: [String] = []
        var pending = ""
        for line in codeBlocks(in: text, skippingText: true) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasSuffix("\\") {
                pending += trimmed.dropLast() + " "
            } else {
                logical.append(pending + trimmed)
                pending = ""
            }
        }
        var commands: [[String]] = []
        for line in logical {
            let words = shellWords(line)
            for (index, word) in words.enumerated() where word.word.hasSuffix("cifiltertest") && !word.operator {
                // The program itself: a bare name or a path to it, not a product name given to swift build/run.
                let previous = index > 0 ? words[index - 1].word : ""
                guard word.word == "cifiltertest" || word.word.hasSuffix("/cifiltertest"),
                      !["--product", "release", "run"].contains(previous) else { continue }
                // GNU parallel's `:::` ends the command it runs, as an operator ends a shell's.
                let rest = words[(index + 1)...].prefix { !$0.operator && !$0.word.hasPrefix(":::") }.map(\.word)
                commands.append(rest)
            }
        }
        return commands
    }

    /// Shell words with quotes removed; `| ; & < >` outside quotes are operators; `#` starts a comment at a word's start.
    static func shellWords(_ line: String) -> [(word: String, operator: Bool)] {
        var words: [(String, Bool)] = []
        var current = "", inWord = false, quote: Character? = nil
        func finish() { if inWord { words.append((current, false)) }; current = ""; inWord = false }
        var characters = Array(line)[...]
        while let c = characters.popFirst() {
            if let open = quote {
                if c == open { quote = nil } else { current.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c
                inWord = true
            } else if c == "\\", let next = characters.popFirst() {
                current.append(next)
                inWord = true
            } else if c == " " || c == "\t" {
                finish()
            } else if c == "#" && !inWord {
                break
            } else if "|;&<>".contains(c) {
                finish()
                words.append((String(c), true))
            } else {
                current.append(c)
                inWord = true
            }
        }
        finish()
        return words.map { (word: $0.0, operator: $0.1) }
    }

    struct Subcommand {
        var options: [String: Bool] = [:]  // "--name" or "-n" → whether it takes a value
    }

    /// The command line's declarations, from the binary's own description of itself.
    static func declarations() throws -> (root: Subcommand, subcommands: [String: Subcommand], defaultName: String) {
        let result = try CommandLineTests().run("--experimental-dump-help")
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let command = try #require(json["command"] as? [String: Any])
        func subcommand(_ description: [String: Any]) -> Subcommand {
            var parsed = Subcommand()
            for argument in description["arguments"] as? [[String: Any]] ?? [] {
                let takesValue = (argument["kind"] as? String) == "option"
                for name in argument["names"] as? [[String: Any]] ?? [] {
                    guard let text = name["name"] as? String else { continue }
                    let dashes = (name["kind"] as? String) == "short" ? "-" : "--"
                    parsed.options[dashes + text] = takesValue
                }
            }
            return parsed
        }
        var subcommands: [String: Subcommand] = [:]
        for description in command["subcommands"] as? [[String: Any]] ?? [] {
            if let name = description["commandName"] as? String { subcommands[name] = subcommand(description) }
        }
        return (subcommand(command), subcommands, command["defaultSubcommand"] as? String ?? "explore")
    }

    @Test func everyCommandLineShownParses() throws {
        let (root, subcommands, defaultName) = try Self.declarations()
        let filters = Dictionary(uniqueKeysWithValues: Catalog.builtIn.filters.map { ($0.name, Set($0.inputs.map(\.key))) })
        var count = 0
        for page in try Self.pages() where page.lastPathComponent != "CHANGELOG.md" {
            for words in Self.commands(in: try Self.text(page)) {
                count += 1
                let shown = "\(page.lastPathComponent): cifiltertest \(words.joined(separator: " "))"
                var arguments = words[...]
                let name = arguments.first.flatMap { subcommands[$0] != nil ? $0 : nil } ?? defaultName
                if arguments.first == name { arguments.removeFirst() }
                guard var options = subcommands[name]?.options else { Issue.record("\(shown): no subcommand \(name)"); continue }
                options.merge(root.options) { mine, _ in mine }
                var filter: String? = nil
                while let word = arguments.popFirst() {
                    let isOption = word.hasPrefix("-") && word.count > 1 && !(word.dropFirst().first?.isNumber ?? false)
                    if isOption {
                        let key = String(word.prefix { $0 != "=" })
                        guard let takesValue = options[key] else {
                            Issue.record("\(shown): \(name) has no option \(key)")
                            continue
                        }
                        if takesValue, !word.contains("=") { _ = arguments.popFirst() }
                    } else if ["render", "animate", "stream", "info"].contains(name), !word.contains("…") {
                        // A filter name, or KEY=VALUE for the filter before it.
                        if let equals = word.firstIndex(of: "=") {
                            let key = String(word[..<equals])
                            if let filter, let keys = filters[filter] {
                                #expect(keys.contains(key), "\(shown): \(filter) has no input \(key)")
                            }
                        } else {
                            #expect(filters[word] != nil, "\(shown): no filter \(word)")
                            filter = word
                        }
                    }
                }
            }
        }
        // The extraction itself works: the pages show many commands.
        #expect(count >= 40, "only \(count) command lines found")
    }

    @Test func commandExtraction() {
        let text = """
            ```sh
            ffmpeg -i in.mp4 -f yuv4mpegpipe - | cifiltertest stream --recipe 'a b.json' | ffplay -   # live
            cifiltertest animate X --animate 'inputCenter=[0 0]:[1 1]' \\
                --frames 3 -o out.gif  # a GIF
            swift build --product cifiltertest
            "$prefix/bin/cifiltertest" list > listing.txt
            parallel -S h1 cifiltertest render --shard {}/2 ::: 0 1
            ```
            cifiltertest outside a block
            ```text
             cifiltertest · astronaut.png 512×512 --fit
            ```
            """
        #expect(Self.commands(in: text) == [
            ["stream", "--recipe", "a b.json"],
            ["animate", "X", "--animate", "inputCenter=[0 0]:[1 1]", "--frames", "3", "-o", "out.gif"],
            ["list"],
            ["render", "--shard", "{}/2"],
        ])
    }

    // MARK: The explorer's keys

    /// docs/explorer.md lists the keys the explorer's `?` help lists (scripts/generate-docs writes them there).
    @Test func explorerKeysAreTheHelpsKeys() throws {
        let page = try Self.text(Self.root.appendingPathComponent("docs/explorer.md"))
        let start = try #require(page.range(of: "<!-- keys:"), "docs/explorer.md has no key section")
        let body = page[start.upperBound...].drop { $0 != "\n" }.dropFirst()
        let end = try #require(body.range(of: "<!-- end of keys -->"))
        #expect(String(body[..<end.lowerBound]) == Explorer.keyReference,
                "docs/explorer.md's keys are not the help's: run scripts/generate-docs")
        // Every key entry of the help is in the table, and the table holds nothing else.
        let rows = body[..<end.lowerBound].split(separator: "\n").dropFirst(2)
        #expect(rows.count == Explorer.keyHelp.count)
        // The program prints the same table for the script.
        let printed = try CommandLineTests().run("explore", "--print-keys")
        #expect(printed.status == 0)
        #expect(printed.stdout == Explorer.keyReference)
    }
}
