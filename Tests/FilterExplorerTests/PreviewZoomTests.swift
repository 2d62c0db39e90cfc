import FilterEngine
import Foundation
import Testing
@testable import FilterExplorer

/// Zoom, 1:1, pan and the geometry of a zoomed preview (cells ↔ image points).
@Suite struct PreviewZoomTests {
    let photo = Rect(x: 0, y: 0, width: 6000, height: 4000)
    let area = CellRect(x: 30, y: 1, width: 90, height: 25)

    @Test func fitShowsEverythingAndOneToOneIsPixelForPixel() {
        #expect(PreviewZoom.fit.visibleRect(of: photo, area: area) == photo)
        let one = PreviewZoom.fit.oneToOne(of: photo, area: area)
        let shown = one.visibleRect(of: photo, area: area)
        // 90×25 cells of 8×16 pixels: 720×400 image pixels, around the middle.
        #expect(shown == Rect(x: 2640, y: 1800, width: 720, height: 400))
        let geometry = PreviewGeometry(imageRect: shown, area: area)
        #expect(geometry.pixelSize.width == 720 && geometry.pixelSize.height == 400)
        #expect(one.proxyFactor == 1)
    }

    @Test func zoomKeepsThePointUnderThePointerAndZoomingOutFits() {
        let fit = PreviewZoom.fitScale(of: photo, area: area)
        let zoomed = PreviewZoom.fit.zoomed(by: 2, of: photo, area: area, around: (1000, 1000))
        #expect(abs(zoomed.scale! - fit * 2) < 1e-9)
        // The anchor stays where it was on screen: half-way between the old centre and the anchor.
        #expect(zoomed.centreX == 2000 && zoomed.centreY == 1500)
        #expect(zoomed.proxyFactor == Int(1 / (fit * 2)))
        #expect(zoomed.zoomed(by: 0.5, of: photo, area: area) == .fit)
        #expect(PreviewZoom(scale: 64, centreX: 10, centreY: 10).zoomed(by: 2, of: photo, area: area).scale == 64)
    }

    @Test func panningStaysInsideTheImage() {
        var zoom = PreviewZoom.fit.oneToOne(of: photo, area: area)
        for _ in 0..<40 { zoom = zoom.panned(dx: 0.5, dy: -0.5, of: photo, area: area) }
        let shown = zoom.visibleRect(of: photo, area: area)
        #expect(shown.maxX == 6000 && shown.minY == 0 && shown.width == 720)
    }

    @Test func aZoomedGeometryMapsCellsToTheVisibleRegion() {
        let shown = PreviewZoom(scale: 1, centreX: 3000, centreY: 2000).visibleRect(of: photo, area: area)
        let geometry = PreviewGeometry(imageRect: shown, area: area)
        #expect(geometry.cells == area)
        let topLeft = geometry.imagePoint(cellX: area.x, cellY: area.y)
        #expect(topLeft.x == 2644 && topLeft.y == 2192)   // centre of the first cell: 4 px right, 8 px down
        #expect(geometry.cell(imageX: 3000, imageY: 2000)! == (area.x + 45, area.y + 12))
        #expect(geometry.cell(imageX: 100, imageY: 100) == nil)   // off screen: no marker
    }

    @Test func aZoomedProxyRequestRendersOnlyTheVisibleRegion() {
        let shown = PreviewZoom(scale: 0.25, centreX: 3000, centreY: 2000).visibleRect(of: photo, area: area)
        let request = PreviewRequest(image: Image(color: .init(red: 1, green: 0, blue: 0, alpha: 1)),
                                     geometry: PreviewGeometry(imageRect: shown, area: area), proxyFactor: 4)
        #expect(request.renderRect == Rect(x: 390, y: 300, width: 720, height: 400))
    }
}
