// Intentionally empty: the declarations of `import CoreImage.CISampler` are Swift declarations of the CoreImage module.
