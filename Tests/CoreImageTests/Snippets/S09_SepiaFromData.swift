// Snippet S09 — pro648/BasicDemos-iOS, Operation&OperationQueue/Operation&OperationQueue/SepiaFilter.swift
// (CIImage(data:), a static CIContext, kCIInputImageKey, createCGImage). Changes are marked [changed] (UIImage and
// its pngData() are UIKit).
//
//  SepiaFilter.swift
//  Operation&OperationQueue
//
//  Created by pro648 on 2020/4/19.
//  Copyright © 2020 pro648. All rights reserved.
//

import CoreImage // [changed] was: import UIKit

class SepiaFilter {
    private static let context = CIContext()
    
    func applySepiaFilter(_ data: Data) -> CGImage? { // [changed] was: (_ image: UIImage) -> UIImage?
        // [changed] removed: guard let data = image.pngData() else { return nil }
        let inputImage = CIImage(data: data)
        
//        let context = CIContext(options: nil)
        
        guard let filter = CIFilter(name: "CISepiaTone") else { return nil }
        filter.setValue(inputImage, forKey: kCIInputImageKey)
        filter.setValue(0.8, forKey: "inputIntensity")
        
        guard let outputImage = filter.outputImage,
            let outImage = SepiaFilter.context.createCGImage(outputImage, from: outputImage.extent)
            else {
                return nil
        }
        
        return outImage // [changed] was: return UIImage(cgImage: outImage)
    }
}
