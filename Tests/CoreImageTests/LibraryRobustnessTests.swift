import Foundation
import Testing
import CoreImage

/// The library under misuse (issue: reliability on the new surfaces): a filter set on one thread while another
/// renders it, and hundreds of failed compiles with huge names.
@Suite struct LibraryRobustnessTests {
    @Test func settingAValueWhileAnotherThreadRendersDoesNotCrash() async throws {
        let filter = try #require(CIFilter(name: "CIGaussianBlur"))
        let image = CIImage(contentsOf: Samples.chelsea)!.cropped(to: CGRect(x: 0, y: 0, width: 64, height: 64))
        filter.setValue(image, forKey: kCIInputImageKey)
        let context = CIContext()
        nonisolated(unsafe) let shared = filter
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for i in 0..<3_000 {
                    shared.setValue(Double(i % 7), forKey: kCIInputRadiusKey)
                    shared.setValue(i % 2 == 0 ? image : image.transformed(by: .init(translationX: 1, y: 0)), forKey: kCIInputImageKey)
                }
            }
            group.addTask {
                for _ in 0..<300 {
                    if let output = shared.outputImage {
                        _ = context.createCGImage(output, from: CGRect(x: 0, y: 0, width: 8, height: 8))
                    }
                }
            }
        }
        #expect(filter.outputImage != nil)
    }

    @Test func failedCompilesWithLongNamesStayBounded() throws {
        func residentBytes() -> Int {
            let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "0 0"
            return (Int(statm.split(separator: " ")[1]) ?? 0) * 4096
        }
        // The resident size is the whole process's: tests running beside this one move it too (one batch of two
        // grew 61 MB beside them). Three batches, any of which growing less than 60 MB shows that failed compiles
        // keep nothing much (300 MB before).
        var growths: [Int] = []
        for batch in 0..<3 {
            let before = residentBytes()
            for i in 0..<300 {
                let name = String(repeating: "k", count: 100_000) + "\(batch)-\(i)"
                #expect(CIColorKernel(source: "kernel vec4 \(name)(__sample s) { return s }") == nil)  // missing ';'
            }
            growths.append(residentBytes() - before)
            if growths.last! < 60 << 20 { break }
        }
        #expect(growths.min()! < 60 << 20, "grew \(growths.map { $0 >> 20 }) MB")
    }
}
