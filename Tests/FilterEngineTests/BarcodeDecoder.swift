import Foundation
import Testing
@testable import FilterEngine

/// Reads generated barcodes back with an independent decoder: zxing-cpp (PyPI `zxing-cpp`, installed by
/// scripts/install-deps), run once per batch as a Python subprocess on PGM files. When python3 or zxing-cpp is
/// missing, `decode` prints why and returns nil, and the calling test skips its decoding checks.
enum BarcodeDecoder {
    struct Result: Equatable {
        let format: String
        let bytes: [UInt8]
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/decode_barcodes.py")

    /// The symbols zxing-cpp finds in each image, in the order given; nil when the decoder cannot run.
    static func decode(_ images: [Image]) throws -> [[Result]]? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("barcode-decode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (i, image) in images.enumerated() {
            let path = folder.appendingPathComponent("\(i).pgm").path
            try writePGM(image, to: path)
            paths.append(path)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + paths
        // Output goes to files, not pipes: reading a pipe while tests run in parallel can fail with EINTR.
        let outputURL = folder.appendingPathComponent("out.jsonl"), errorURL = folder.appendingPathComponent("err.txt")
        FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL), errors = try FileHandle(forWritingTo: errorURL)
        defer { try? output.close(); try? errors.close() }
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch {
            print("barcode decoding skipped: python3 cannot be started (\(error))")
            return nil
        }
        process.waitUntilExit()
        let data = try Data(contentsOf: outputURL)
        let message = String(decoding: try Data(contentsOf: errorURL), as: UTF8.self)
        if process.terminationStatus == 3 || process.terminationStatus == 127 {
            print("barcode decoding skipped: \(message.isEmpty ? "python3 is missing" : message) (scripts/install-deps installs it)")
            return nil
        }
        guard process.terminationStatus == 0 else {
            Issue.record("decode_barcodes.py failed: \(message)")
            return []
        }
        var results: [String: [Result]] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let found = (object["results"] as! [[String: Any]]).map { r in
                Result(format: r["format"] as! String, bytes: BarcodeDescriptor.bytes(hex: r["hex"] as! String) ?? [])
            }
            results[object["file"] as! String] = found
        }
        return paths.map { results[$0] ?? [] }
    }

    /// The image as an 8-bit grey PGM, top row first.
    static func writePGM(_ image: Image, to path: String) throws {
        let buffer = try TestImages.render(image)
        let w = buffer.rect.width, h = buffer.rect.height
        var bytes = Array("P5\n\(w) \(h)\n255\n".utf8)
        for top in 0..<h {
            for x in 0..<w {
                let p = buffer.pixel(x: x + buffer.rect.x, y: buffer.rect.y + h - 1 - top)
                bytes.append(UInt8(max(0, min(255, (p.x * 255).rounded()))))
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
