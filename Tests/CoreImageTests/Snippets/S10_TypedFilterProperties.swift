// Snippet S10 — matt-martindale/ImageFilterEditor, ImageFilterEditor/ViewController.swift (typed builtins kept as
// properties: sepiaTone, vignette, photoEffectNoir, noiseReduction, `colorControls().brightness`). Changes are
// marked [changed] (the view controller is UIKit).
//
//  ViewController.swift
//  ImageFilterEditor
//
//  Created by Matthew Martindale on 7/8/20.
//  Copyright © 2020 Matthew Martindale. All rights reserved.
//

import CoreImage // [changed] removed: import UIKit
import CoreImage.CIFilterBuiltins

class FiltersViewController { // [changed] was: FiltersViewController: UIViewController

    // [changed] removed: override func viewDidLoad() { super.viewDidLoad() }

    private let sepiaFilter = CIFilter.sepiaTone()
    private let vignetteFilter = CIFilter.vignette()
    private let noirFilter = CIFilter.photoEffectNoir()
    private let noiseReductionFilter = CIFilter.noiseReduction()
    private let brightnessFilter = CIFilter.colorControls().brightness

    // [harness] read-only access for the test
    var filters: [CIFilter] { [sepiaFilter, vignetteFilter, noirFilter, noiseReductionFilter] }
    var brightness: Float { brightnessFilter }
    func vignette(_ image: CIImage, intensity: Float, radius: Float) -> CIImage? {
        vignetteFilter.inputImage = image; vignetteFilter.intensity = intensity; vignetteFilter.radius = radius
        return vignetteFilter.outputImage
    }
}
