import './ui.css';

export { Chip } from './chip';
export { DirectionIcon } from './direction-icon';
export { Loader } from './loader';
export { Modal, ModalSize } from './modal';
export { Palette } from './palette';
export { PlatformChip, readableTextColour } from './platform-chip';
export { StatusBadge } from './status-badge';
export { Stepper, clampValue, stepValue } from './stepper';
export { signTone, TradeDirection } from './trade-direction';
export { TrendLabel, trendLabel, trendPalette } from './trend';
