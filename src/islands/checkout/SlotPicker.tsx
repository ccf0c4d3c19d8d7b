// Checkout step 2: the delivery slot. A row of day buttons, then that day's two-hour slots as radios, in the
// shop's time zone; a full slot or one past its cut-off is shown but cannot be chosen (the server checks again).
import { useState } from 'react';
import { formatSlotDay, formatSlotRange, shopToday, slotNote, slotsByDay } from '../../lib/slots.ts';
import type { SlotListDto } from '../../server/order-schemas.ts';

interface Props {
  slotList: SlotListDto;
  chosenId: string | null;
  onChoose: (id: string) => void;
  problem: string;
}

export function SlotPicker({ slotList, chosenId, onChoose, problem }: Props) {
  const days = slotsByDay(slotList.slots);
  const today = shopToday(slotList.timeZone);
  const chosenDay = days.find((day) => day.slots.some((slot) => slot.id === chosenId));
  // Start on the chosen slot's day, else the first day with a slot left.
  const [dayShown, setDayShown] = useState(() => (chosenDay ?? days.find((day) => day.open) ?? days[0])?.date);
  const day = days.find((d) => d.date === dayShown) ?? days[0];

  return (
    <section className="checkout-step" id="checkout-slot" aria-labelledby="step-slot">
      <h2 id="step-slot">2. Delivery slot</h2>
      {problem && (
        <p className="form-error" id="slot-problem">
          {problem}
        </p>
      )}
      {days.length === 0 || !day ? (
        <p className="notice">No delivery slots are open right now. Please try again later.</p>
      ) : (
        <>
          <div className="day-buttons" role="group" aria-label="Delivery day">
            {days.map((d) => (
              <button
                key={d.date}
                type="button"
                className="day-button"
                aria-pressed={d.date === day.date}
                onClick={() => setDayShown(d.date)}
              >
                {formatSlotDay(d.date, today)}
                {!d.open && <span className="day-note"> (none left)</span>}
              </button>
            ))}
          </div>
          <fieldset className="choices slot-choices" aria-describedby={problem ? 'slot-problem' : undefined}>
            <legend>Slots on {formatSlotDay(day.date, today)}</legend>
            {day.slots.map((slot) => {
              const note = slotNote(slot);
              return (
                <label key={slot.id} className="choice slot-choice" data-testid="slot-choice" data-unavailable={slot.unavailable ?? undefined}>
                  <input
                    type="radio"
                    name="slot"
                    value={slot.id}
                    checked={chosenId === slot.id}
                    disabled={slot.unavailable !== null}
                    onChange={() => onChoose(slot.id)}
                  />
                  <span>{formatSlotRange(slot, slotList.timeZone)}</span>
                  {note && <span className={slot.unavailable ? 'slot-note closed' : 'slot-note'}>{note}</span>}
                </label>
              );
            })}
          </fieldset>
        </>
      )}
    </section>
  );
}
