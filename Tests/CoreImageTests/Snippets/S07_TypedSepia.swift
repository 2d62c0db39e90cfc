// Snippet S07 — KPIProject/SignalPhotoEditor, SignalPhotoEditor/CoreSignalPhotoEditor/ColorFilters/SepiaFilter.swift
// (typed `CIFilter.sepiaTone()`, `inputImage`, `intensity`). Changes are marked [changed]. The project's own
// `Filter` protocol is declared here as the harness, and the snippet sits in a namespace enum so that its names do
// not collide with the other snippets of this test module.
import CoreImage.CIFilterBuiltins // [changed] was: import UIKit

enum SignalPhotoEditor { // [harness]
protocol Filter { var filterName: String? { get }; func applyFilter(image: inout CIImage) } // [harness]

struct SepiaFilter: Filter {
    
    var filterName: String? = "Sepia"
    
    var intensity: Float?
        
    func applyFilter(image: inout CIImage) {
        
        let currentFilter = CIFilter.sepiaTone()
        currentFilter.inputImage = image
        currentFilter.intensity = intensity ?? 1
        
        // get a CIImage from our filter or exit if that fails
        guard let outputImage = currentFilter.outputImage else { return }
        
        image = outputImage
        
    }
    
}
} // [harness]
