import { render } from 'preact';
import { App } from './app.tsx';
import './styles/base.css';
import './styles/layout.css';
import './styles/controls.css';
import './styles/feedback.css';
import './styles/combobox.css';
import './styles/execute.css';
import './styles/tokens.css';
import './styles/events.css';
import './styles/runs.css';
import './styles/run-detail.css';
import './styles/settings.css';
import './styles/automations.css';

render(<App />, document.getElementById('app')!);
