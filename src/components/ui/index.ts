import './ui.css';

export { Chip } from './chip';
export { DirectionIcon } from './direction-icon';
export { Loader } from './loader';
export { Modal, ModalSize } from './modal';
export { Palette } from './palette';
export { PlatformChip } from './platform-chip';
export { Stepper } from './stepper';
export { signTone, TradeDirection } from './trade-direction';
export { trendLabel, trendPalette } from './trend';
