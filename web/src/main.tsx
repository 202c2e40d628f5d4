import { render } from 'preact';
import { App } from './view/App';
import './styles.css';

render(<App />, document.getElementById('root')!);
