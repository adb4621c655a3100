import { iconAtlasUrl } from '../../api/icons';
import { iconIndexOf, iconSpriteStyle } from '../../domain/icon-atlas';
import './sub-category-icon.css';

interface SubCategoryIconProps {
  /** The subcategory's id ("Safe"); one that is not a known subcategory draws nothing. */
  subCategory: string;
  /** Width and height in CSS px. */
  size: number;
  className?: string;
}

/**
 * A subcategory's icon as a cell of the server's icon atlas (one PNG for every icon, shared
 * with the map's marker sprites): a CSS sprite, decorative (the label beside it says what it is).
 */
export function SubCategoryIcon({ subCategory, size, className }: SubCategoryIconProps) {
  const index = iconIndexOf(subCategory);
  if (index < 0) return null;
  return (
    <span
      className={`sub-category-icon${className ? ` ${className}` : ''}`}
      aria-hidden="true"
      data-icon={subCategory}
      style={{ width: size, height: size, backgroundImage: `url("${iconAtlasUrl()}")`, ...iconSpriteStyle(index, size) }}
    />
  );
}
