// Snippet S08 — Maxnelson997/Color-Me-App, colormeapp/CustomFilters/EdgeGlowFilter.swift (a CIFilter subclass
// with its own `inputImage`, `override var outputImage`, chains with the Swift 3 `applyingFilter(_:withInputParameters:)`
// and `cropping(to:)`, CIEdges, CIBloom, CIPhotoEffectNoir, CIAdditionCompositing). The EdgeGlowFilter class only.
// Changes are marked [changed].
import CoreImage // [changed] removed: import UIKit

class EdgeGlowFilter: CIFilter
{
    var inputImage: CIImage?
    override var outputImage: CIImage?
    {
        guard let inputImage = inputImage else
        {
            return nil
        }
        let edgesImage = inputImage
            .applyingFilter(
                "CIEdges",
                withInputParameters: [
                    kCIInputIntensityKey: 10])
        let glowingImage = CIFilter(
            name: "CIColorControls",
            withInputParameters: [
                kCIInputImageKey: edgesImage,
                kCIInputSaturationKey: 1.75])?
            .outputImage?
            .applyingFilter(
                "CIBloom",
                withInputParameters: [
                    kCIInputRadiusKey: 2.5,
                    kCIInputIntensityKey: 1.25])
            .cropping(to: inputImage.extent)
        let darkImage = inputImage
            .applyingFilter(
                "CIPhotoEffectNoir",
                withInputParameters: nil)
            .applyingFilter(
                "CIExposureAdjust",
                withInputParameters: [
                    "inputEV": -1.5])
        let finalComposite = glowingImage!
            .applyingFilter(
                "CIAdditionCompositing",
                withInputParameters: [
                    kCIInputBackgroundImageKey:
                    darkImage])
        return finalComposite
    }
}
