// The images of the sky on the application's globe that the deep-sky objects give way to: each
// pretty picture's field and each survey tract (src/globe/layers/deep-sky.ts, ImageField), told
// to the deep-sky layer as their layers learn where they lie.
import type { DeepSkyLayer, ImageField } from '../../../globe/layers/deep-sky';

export class ImageFields {
  private readonly fields: ImageField[] = [];

  constructor(private readonly deepSky: DeepSkyLayer) {}

  add(fields: readonly ImageField[]): void {
    if (fields.length === 0) return;
    this.fields.push(...fields);
    this.deepSky.update({ fields: [...this.fields] });
  }
}
