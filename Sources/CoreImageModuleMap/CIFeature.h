// Intentionally empty: the declarations of `import CoreImage.CIFeature` are Swift declarations of the CoreImage module.
