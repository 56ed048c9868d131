import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Alert, Button, Checkbox, RadioGroup, Select, TextField } from '.';

function Controlled(props: { error?: string; multiline?: boolean }) {
  const [value, setValue] = useState('');
  return (
    <TextField
      id="email"
      label="Email"
      value={value}
      onChange={(e) => setValue(e.target.value)}
      error={Boolean(props.error)}
      helperText={props.error}
      multiline={props.multiline}
      inputProps={{ maxLength: 5 }}
    />
  );
}

describe('TextField', () => {
  it('is named by its label, takes typing, and passes html attributes on', async () => {
    render(<Controlled />);
    const input = screen.getByLabelText('Email');
    expect(input.tagName).toBe('INPUT');
    expect(input).toHaveAttribute('maxlength', '5');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).not.toHaveAttribute('aria-describedby');
    await userEvent.setup({ delay: null }).type(input, 'chanda@x');
    expect(input).toHaveValue('chand');
  });

  it('in error: aria-invalid, and the message under it is its description', () => {
    render(<Controlled error="Email is required" />);
    const input = screen.getByRole('textbox', { name: 'Email' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Email is required');
    expect(screen.getByText('Email is required')).toHaveAttribute('id', 'email-helper');
  });

  it('multiline is a textarea with the same wiring', () => {
    render(<Controlled multiline error="Message is required" />);
    const area = screen.getByRole('textbox', { name: 'Email' });
    expect(area.tagName).toBe('TEXTAREA');
    expect(area).toHaveAccessibleDescription('Message is required');
  });

  it('makes an id when none is given, keeps a required star out of the name, and shows adornments', () => {
    render(<TextField label="Phone number" value="" onChange={() => {}} required startAdornment="+260" endAdornment={<button type="button">Clear</button>} />);
    const input = screen.getByRole('textbox', { name: 'Phone number' });
    expect(input.id).not.toBe('');
    expect(input).toBeRequired();
    expect(screen.getByText('+260')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Clear' })).toBeInTheDocument();
  });
});

describe('Select', () => {
  it('is a native select named by its label (or aria-label), with its error described', async () => {
    const onChange = vi.fn();
    const { rerender } = render(
      <Select id="town" label="Town" value="" onChange={onChange} error helperText="Pick a town">
        <option value="">Choose</option>
        <option value="Lusaka">Lusaka</option>
      </Select>,
    );
    const select = screen.getByRole('combobox', { name: 'Town' });
    expect(select).toHaveAttribute('aria-invalid', 'true');
    expect(select).toHaveAccessibleDescription('Pick a town');
    await userEvent.setup({ delay: null }).selectOptions(select, 'Lusaka');
    expect(onChange).toHaveBeenCalled();
    rerender(
      <Select value="" inputProps={{ 'aria-label': 'Inspiration' }}>
        <option value="">Inspiration</option>
      </Select>,
    );
    expect(screen.getByRole('combobox', { name: 'Inspiration' })).not.toHaveAttribute('aria-invalid');
  });
});

describe('Checkbox and RadioGroup', () => {
  it('a checkbox is named by its label; its error marks it invalid and describes it', async () => {
    function Box() {
      const [on, setOn] = useState(false);
      return <Checkbox checked={on} onChange={(e) => setOn(e.target.checked)} label="I accept" error={on ? undefined : 'You must accept'} />;
    }
    render(<Box />);
    const box = screen.getByRole('checkbox', { name: 'I accept' });
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveAccessibleDescription('You must accept');
    await userEvent.setup({ delay: null }).click(box);
    expect(box).toBeChecked();
    expect(box).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('You must accept')).not.toBeInTheDocument();
  });

  it('a radio group is named by its label, marks its error, and its radios follow the value', async () => {
    function Group() {
      const [value, setValue] = useState('');
      return (
        <RadioGroup
          label="Select Subject"
          name="subject"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          options={[
            { value: 'a', label: 'General Inquiry' },
            { value: 'b', label: 'Orders' },
          ]}
          error={value === ''}
          helperText={value === '' ? 'Please select a subject' : undefined}
          row
        />
      );
    }
    render(<Group />);
    const group = screen.getByRole('radiogroup', { name: 'Select Subject' });
    expect(group).toHaveAttribute('aria-invalid', 'true');
    expect(group).toHaveAccessibleDescription('Please select a subject');
    await userEvent.setup({ delay: null }).click(screen.getByRole('radio', { name: 'Orders' }));
    expect(screen.getByRole('radio', { name: 'Orders' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'General Inquiry' })).not.toBeChecked();
    expect(group).not.toHaveAttribute('aria-invalid');
  });
});

describe('Button', () => {
  it('is a type="button" by default; busy disables it, marks it aria-busy and keeps its words as its name', () => {
    const { rerender } = render(<Button variant="solid">SIGN IN</Button>);
    const button = screen.getByRole('button', { name: 'SIGN IN' });
    expect(button).toHaveAttribute('type', 'button');
    expect(button).toBeEnabled();
    expect(button).not.toHaveAttribute('aria-busy');
    rerender(
      <Button variant="solid" type="submit" busy>
        SIGN IN
      </Button>,
    );
    expect(screen.getByRole('button', { name: 'SIGN IN' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'SIGN IN' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('button', { name: 'SIGN IN' })).toHaveAttribute('type', 'submit');
  });
});

describe('Alert', () => {
  it('errors and warnings are alerts; success and information are status messages; role can be set', () => {
    render(
      <>
        <Alert severity="error">Invalid login credentials</Alert>
        <Alert severity="success" title="You're on the list!">
          We'll email you when ready.
        </Alert>
        <Alert severity="info" role="note">
          Coming Soon.
        </Alert>
        <Alert severity="info" action={<Button>Don't send</Button>}>
          No internet connection.
        </Alert>
      </>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid login credentials');
    const statuses = screen.getAllByRole('status');
    expect(statuses[0]).toHaveTextContent("You're on the list!We'll email you when ready.");
    expect(statuses[1]).toHaveTextContent('No internet connection.');
    expect(screen.getByRole('note')).toHaveTextContent('Coming Soon.');
    expect(screen.getByRole('button', { name: "Don't send" })).toBeInTheDocument();
  });
});
