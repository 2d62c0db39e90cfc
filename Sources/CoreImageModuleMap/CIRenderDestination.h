// Intentionally empty: the declarations of `import CoreImage.CIRenderDestination` are Swift declarations of the CoreImage module.
