// Snippet S06 — Team865/iOS-Scouting-App, ios-scouting-app/QREntries/QRCodeGenerator.swift (CIQRCodeGenerator by
// name with Data in, a scale transform). Changes are marked [changed] (UIImage is UIKit).
//
//  QRCodeGenerator.swift
//  Scouting
//
//  Created by DUC LOC on 4/28/20.
//  Copyright © 2020 Warp7. All rights reserved.
//

import Foundation
import CoreImage // [changed] was: import UIKit
class QRCodeGenerator{
func generateQRCode(from string: String) -> CIImage? { // [changed] was: -> UIImage?
    let data = string.data(using: String.Encoding.ascii)

    if let filter = CIFilter(name: "CIQRCodeGenerator") {
        filter.setValue(data, forKey: "inputMessage")
        let transform = CGAffineTransform(scaleX: 3, y: 3)

        if let output = filter.outputImage?.transformed(by: transform) {
            return output // [changed] was: return UIImage(ciImage: output)
        }
    }
    return nil
    }
}
