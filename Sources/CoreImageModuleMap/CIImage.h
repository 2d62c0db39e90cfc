// Intentionally empty: the declarations of `import CoreImage.CIImage` are Swift declarations of the CoreImage module.
